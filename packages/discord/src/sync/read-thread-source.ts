import { ChannelType, type APIMessage, type APIThreadChannel } from 'discord-api-types/v10';
import { AppError } from '@brain/errors';
import type { SourceInput, ThreadMessage } from '@brain/ingest';
import type { DiscordHistory } from '../history/discord-history.ts';
import { threadMessages } from '../history/thread-messages.ts';

/** A channel has no length limit; a sync reads all of it (one page of 100 a request). */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;
/** Tag names that say a forum post's question was answered. */
const SOLVED_TAG = /(^|[^a-z])(solved|resolved|answered|fixed|done)([^a-z]|$)|✅|✔/i;

/** Whether one of a post's tag names says its question was answered. */
export function solvedByTags(names: readonly string[]): boolean {
  return names.some((n) => SOLVED_TAG.test(n));
}

export interface ThreadToRead {
  guildId: string;
  thread: APIThreadChannel;
  /** A forum post: its tags are kept, and say whether it is solved. */
  isForum: boolean;
  /** The parent forum's tags, id → name. */
  tags: ReadonlyMap<string, string>;
  /** Someone marked it solved (✅, "Mark solved", a solved tag seen on the Gateway): solved whatever its tags say now. */
  markedSolved?: boolean;
}

/**
 * A thread read whole over REST and mapped to the source it is saved as: its people's messages
 * (never a bot's, the brain's own answers included), its tags and whether it is solved. The one
 * read shared by /sync passes and the Gateway's refreshes (edits, deletes, solved marks). Null
 * when the thread is gone or holds nothing to save.
 */
export async function readThreadSource(history: DiscordHistory, t: ThreadToRead, signal?: AbortSignal): Promise<{ input: SourceInput; messageIds: string[] } | null> {
  let raw: APIMessage[];
  try {
    raw = await history.readAll(t.thread.id, { signal, maxMessages: NO_LIMIT });
  } catch (error) {
    if (error instanceof AppError && error.code === 'DISCORD_CHANNEL_NOT_FOUND') return null;
    throw error;
  }
  const parentId = t.thread.parent_id ?? null;
  const messages = threadMessages(raw, { guildId: t.guildId, threadId: t.thread.id, parentId }).filter(hasSomething);
  if (messages.length === 0) return null;
  const names = (t.thread.applied_tags ?? []).flatMap((id) => (t.tags.has(id) ? [t.tags.get(id) as string] : []));
  const solved = solvedByTags(names) || t.markedSolved === true;
  const input: SourceInput = {
    kind: 'discord_thread',
    guildId: t.guildId,
    threadId: t.thread.id,
    parentId,
    private: t.thread.type === ChannelType.PrivateThread,
    name: t.thread.name ?? 'Discord thread',
    messages,
    ...(t.isForum ? { tags: names, solved } : solved ? { solved } : {}),
  };
  return { input, messageIds: messages.map((m) => m.id) };
}

export function hasSomething(m: ThreadMessage): boolean {
  return m.content.trim() !== '' || m.attachments.length > 0;
}
