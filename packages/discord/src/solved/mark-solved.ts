import { withWorkspace, type Database } from '@brain/db';
import type { DiscordHistory } from '../history/discord-history.ts';
import { refreshThreadSource, type RefreshResult } from './refresh-thread-source.ts';
import { markThreadSolved, type SolvedHow } from './solved-threads.ts';

export interface SolvedMark {
  workspaceId: string;
  guildId: string;
  threadId: string;
  how: SolvedHow;
  /** The Discord user who marked it. */
  userId: string;
  signal?: AbortSignal | undefined;
}

/**
 * Marks a thread solved and saves it as a source (or refreshes the one it is), with `solved` in
 * its metadata: retrieval then prefers it (prefer-solved). The same for a tag, a ✅ and "Mark
 * solved"; who may mark is the caller's decision.
 */
export async function markSolvedAndSave(db: Database, history: DiscordHistory, mark: SolvedMark): Promise<RefreshResult & { newlyMarked: boolean }> {
  const newlyMarked = await withWorkspace(db, mark.workspaceId, (tx) =>
    markThreadSolved(tx, { workspaceId: mark.workspaceId, threadId: mark.threadId, how: mark.how, markedBy: `discord:${mark.userId}` }),
  );
  const result = await refreshThreadSource(db, history, {
    workspaceId: mark.workspaceId,
    guildId: mark.guildId,
    threadId: mark.threadId,
    savedBy: `discord:${mark.userId}`,
    onlyIfSaved: false,
    signal: mark.signal,
  });
  return { ...result, newlyMarked };
}
