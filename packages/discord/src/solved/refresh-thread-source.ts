import { ChannelType, type APIChannel, type APIGuildForumChannel, type APIThreadChannel } from 'discord-api-types/v10';
import { EVERYTHING, withWorkspace, type Database } from '@brain/db';
import { AppError } from '@brain/errors';
import { forgetSource, saveSource } from '@brain/ingest';
import type { DiscordHistory } from '../history/discord-history.ts';
import { readThreadSource } from '../sync/read-thread-source.ts';
import { artifactByKey } from '../sync/synced-sources.ts';
import { solvedThreadIds } from './solved-threads.ts';
import { threadSourceKey } from './thread-source-key.ts';

const THREAD_TYPES = new Set<number>([ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread]);

export interface RefreshThread {
  workspaceId: string;
  guildId: string;
  threadId: string;
  /** Who the save is recorded as: `discord:<user>` for a mark, `gateway` for an edit's refresh. */
  savedBy: string;
  /** Edits and deletes refresh only a thread that is already a source; a solved mark saves it. */
  onlyIfSaved: boolean;
  signal?: AbortSignal | undefined;
}

export type RefreshResult =
  | { status: 'saved'; artifactId: string; created: boolean }
  /** Its messages are all gone (deleted): the source is forgotten, as a sync pass would. */
  | { status: 'emptied'; artifactId: string }
  | { status: 'not-a-source' | 'forgotten' | 'not-a-thread' | 'nothing-to-save' };

/**
 * Reads a thread again over REST and saves it through the same path as /sync and "Save thread to
 * brain" (readThreadSource, then saveSource: a changed message re-embeds only its passages), with
 * `solved` from its tags or its mark. A source someone forgot stays forgotten.
 */
export async function refreshThreadSource(db: Database, history: DiscordHistory, r: RefreshThread): Promise<RefreshResult> {
  const key = threadSourceKey(r.guildId, r.threadId);
  const { existing, marked } = await withWorkspace(db, r.workspaceId, async (tx) => ({
    existing: await artifactByKey(tx, r.workspaceId, key),
    marked: (await solvedThreadIds(tx, r.workspaceId)).has(r.threadId),
  }));
  if (existing?.forgotten) return { status: 'forgotten' };
  if (!existing && r.onlyIfSaved) return { status: 'not-a-source' };

  let thread: APIChannel;
  try {
    thread = await history.channel(r.threadId, { signal: r.signal });
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'DISCORD_CHANNEL_NOT_FOUND')) throw error;
    return existing ? emptied(db, r.workspaceId, existing.id) : { status: 'nothing-to-save' };
  }
  if (!THREAD_TYPES.has(thread.type)) return { status: 'not-a-thread' };
  const asThread = thread as APIThreadChannel;
  const parent = asThread.parent_id ? await history.channel(asThread.parent_id, { signal: r.signal }) : undefined;
  const isForum = parent?.type === ChannelType.GuildForum || parent?.type === ChannelType.GuildMedia;
  const tags = new Map(((parent as APIGuildForumChannel | undefined)?.available_tags ?? []).map((t) => [t.id, t.name]));

  const read = await readThreadSource(history, { guildId: r.guildId, thread: asThread, isForum, tags, markedSolved: marked }, r.signal);
  if (!read) return existing ? emptied(db, r.workspaceId, existing.id) : { status: 'nothing-to-save' };
  const { artifacts } = await saveSource(db, { workspaceId: r.workspaceId, input: read.input, savedBy: r.savedBy });
  const main = artifacts.find((a) => a.sourceKey === key);
  if (!main) throw new Error(`refreshThreadSource: saving ${key} returned no artifact for it`);
  return { status: 'saved', artifactId: main.artifactId, created: main.created };
}

async function emptied(db: Database, workspaceId: string, artifactId: string): Promise<RefreshResult> {
  // On behalf of the thread, not of a reader: whatever the source's audience.
  await forgetSource(db, workspaceId, artifactId, { audience: EVERYTHING });
  return { status: 'emptied', artifactId };
}
