import { recordFeedback, type Feedback } from '@brain/answer';
import type { Queryable } from '@brain/db';

export interface VoteCounts {
  up: number;
  down: number;
}

/**
 * 👍/👎 on an auto-answer, inside the workspace's transaction: one vote per person (a second
 * replaces the first), and the answer's queries row gets the latest through the one
 * recordFeedback, as an /ask answer does. Undefined when no such auto-answer is in this workspace.
 */
export async function recordAutoAnswerVote(tx: Queryable, input: { workspaceId: string; autoAnswerId: string; userId: string; vote: Feedback }): Promise<VoteCounts | undefined> {
  const [answer] = await tx.query<{ query_id: string | null }>('select query_id from public.auto_answers where id = $1 and workspace_id = $2', [input.autoAnswerId, input.workspaceId]);
  if (!answer) return undefined;
  await tx.query(
    `insert into public.auto_answer_votes (auto_answer_id, workspace_id, user_id, vote) values ($1, $2, $3, $4)
     on conflict (auto_answer_id, user_id) do update set vote = excluded.vote, voted_at = now()`,
    [input.autoAnswerId, input.workspaceId, input.userId, input.vote],
  );
  if (answer.query_id) await recordFeedback(tx, { queryId: answer.query_id, feedback: input.vote, feedbackBy: input.userId });
  const [counts] = await tx.query<{ up: number; down: number }>(
    `select count(*) filter (where vote = 'up')::int as up, count(*) filter (where vote = 'down')::int as down
       from public.auto_answer_votes where auto_answer_id = $1`,
    [input.autoAnswerId],
  );
  return { up: counts?.up ?? 0, down: counts?.down ?? 0 };
}
