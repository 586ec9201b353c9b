import { isUuid, withWorkspace, type Database } from '@brain/db';

/** 👍/👎 on an answer of this workspace; the latest vote wins. False when there is no such answer here. */
export async function recordAnswerFeedback(db: Database, workspaceId: string, params: { queryId: string; feedback: 'up' | 'down'; by: string }): Promise<boolean> {
  if (!isUuid(params.queryId)) return false;
  const rows = await withWorkspace(db, workspaceId, (tx) =>
    tx.query('update queries set feedback = $2, feedback_by = $3, feedback_at = now() where id = $1 returning id', [params.queryId, params.feedback, params.by]),
  );
  return rows.length === 1;
}
