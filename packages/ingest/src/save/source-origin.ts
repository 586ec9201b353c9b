import type { SourceInput } from './source-input.ts';

/**
 * Where a source was saved, and so who could read it there. Discord saves carry the channel or
 * thread of the interaction; the CLI and MCP pass a channel when asked to (`--channel`), and
 * otherwise save workspace-wide (no origin).
 */
export interface SourceOrigin {
  guildId: string | null;
  /** The channel or thread it was saved in. */
  channelId: string;
  /** Saved in a thread (public, announcement or private). */
  thread: boolean;
  /** A thread's parent channel; null when Discord did not say. A channel's category is not recorded here. */
  parentId: string | null;
  /** A private thread: only its members (and thread managers) read it. */
  privateThread: boolean;
  /** The messages it holds: a saved message's id, a saved thread's message ids. */
  messageIds?: readonly string[] | undefined;
}

const SNOWFLAKE = /^[0-9]{1,20}$/;

/**
 * What a Discord source says about where it lives, for a caller that passed no origin: no path
 * can save a Discord message or thread workspace-wide by leaving the origin out. A message's
 * channel may be a thread; taking its own id is narrower, never wider.
 */
export function originOfInput(input: SourceInput): SourceOrigin | undefined {
  if (input.kind === 'discord_message') {
    return { guildId: input.guildId, channelId: input.channelId, thread: false, parentId: null, privateThread: false, messageIds: [input.messageId] };
  }
  if (input.kind === 'discord_thread') {
    return { guildId: input.guildId, channelId: input.threadId, thread: true, parentId: input.parentId, privateThread: input.private, messageIds: input.messages.map((m) => m.id) };
  }
  return undefined;
}

/**
 * The audience key a source takes from its origin: workspace-wide without one; a private
 * thread's own; a public or announcement thread's parent's (the same readers); a channel's own.
 * A thread whose parent is unknown keeps its own id, which is narrower, never wider.
 */
export function audienceOfOrigin(origin: SourceOrigin | undefined): 'workspace' | `channel:${string}` {
  if (!origin) return 'workspace';
  if (!SNOWFLAKE.test(origin.channelId)) throw new Error(`not a Discord channel id: ${origin.channelId}`);
  if (origin.thread && !origin.privateThread && origin.parentId && SNOWFLAKE.test(origin.parentId)) return `channel:${origin.parentId}`;
  return `channel:${origin.channelId}`;
}
