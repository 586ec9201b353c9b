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
