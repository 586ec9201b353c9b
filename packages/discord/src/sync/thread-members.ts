import type { Queryable } from '@brain/db';
import { AppError } from '@brain/errors';
import type { DiscordHistory } from '../history/discord-history.ts';

/**
 * A private thread's members as Discord lists them, or null when it will not say: listing them
 * needs the GUILD_MEMBERS intent, and without it Discord answers 403. Null leaves the thread with
 * no known member, so its sources stay citable only inside it.
 */
export async function readThreadMembers(history: DiscordHistory, threadId: string, signal: AbortSignal | undefined): Promise<string[] | null> {
  try {
    return await history.threadMembers(threadId, { signal });
  } catch (error) {
    if (error instanceof AppError && error.code === 'DISCORD_MISSING_ACCESS') return null;
    throw error;
  }
}

/** Replaces what is known of a thread's members (none when `userIds` is null), in the caller's transaction. */
export async function replaceThreadMembers(tx: Queryable, workspaceId: string, threadId: string, userIds: readonly string[] | null): Promise<void> {
  await tx.query('delete from thread_members where workspace_id = $1 and thread_id = $2', [workspaceId, threadId]);
  if (!userIds || userIds.length === 0) return;
  await tx.query(
    `insert into thread_members (workspace_id, thread_id, user_id)
     select $1, $2, u from unnest($3::text[]) as u on conflict do nothing`,
    [workspaceId, threadId, [...new Set(userIds)]],
  );
}

/** The private threads a member is known (by the last sync) to be in. */
export async function privateThreadsOf(tx: Queryable, workspaceId: string, userId: string): Promise<Set<string>> {
  const rows = await tx.query<{ thread_id: string }>('select thread_id from thread_members where workspace_id = $1 and user_id = $2', [workspaceId, userId]);
  return new Set(rows.map((r) => r.thread_id));
}
