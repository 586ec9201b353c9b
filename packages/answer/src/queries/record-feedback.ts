import { isUuid, type Queryable } from '@brain/db';

export type Feedback = 'up' | 'down';

/**
 * Stores 👍/👎 on an answer; a second vote replaces the first. Run inside withWorkspace: a query id
 * of another workspace matches no row. Returns false when no such query exists in this workspace.
 */
export async function recordFeedback(
  tx: Queryable,
  params: { queryId: string; feedback: Feedback; feedbackBy: string | null },
): Promise<boolean> {
  if (!isUuid(params.queryId)) return false;
  const rows = await tx.query<{ id: string }>(
    `update public.queries set feedback = $2, feedback_by = $3, feedback_at = now()
     where id = $1 returning id`,
    [params.queryId, params.feedback, params.feedbackBy],
  );
  return rows.length === 1;
}
