import type { Queryable } from '@brain/db';

export type SolvedHow = 'tag' | 'reaction' | 'command';

/** The threads of a workspace someone marked solved, inside a tenant transaction. */
export async function solvedThreadIds(tx: Queryable, workspaceId: string): Promise<Set<string>> {
  const rows = await tx.query<{ thread_id: string }>('select thread_id from public.solved_threads where workspace_id = $1', [workspaceId]);
  return new Set(rows.map((r) => r.thread_id));
}

/** Records the mark (the first one stands: who and how it was first marked); true when it is new. */
export async function markThreadSolved(tx: Queryable, mark: { workspaceId: string; threadId: string; how: SolvedHow; markedBy: string }): Promise<boolean> {
  const rows = await tx.query(
    `insert into public.solved_threads (workspace_id, thread_id, how, marked_by) values ($1, $2, $3, $4)
     on conflict (workspace_id, thread_id) do nothing returning 1`,
    [mark.workspaceId, mark.threadId, mark.how, mark.markedBy],
  );
  return rows.length > 0;
}
