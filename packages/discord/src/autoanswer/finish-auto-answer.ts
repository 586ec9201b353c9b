import type { Queryable } from '@brain/db';

/** How a trigger ended; every one but `answered` has a reason, said in the thread or, where the bot may not post, in the log. */
export type AutoAnswerOutcome = 'answered' | 'uncovered' | 'not_entitled' | 'failed' | 'forbidden' | 'rate_limited';

/** How a claimed auto-answer ended, and why when nothing was posted in public. */
export async function finishAutoAnswer(
  tx: Queryable,
  id: string,
  result: { outcome: AutoAnswerOutcome; reason: string | null; queryId: string | null; replyMessageId: string | null },
): Promise<void> {
  await tx.query(
    `update public.auto_answers
        set outcome = $2, reason = $3, query_id = $4, reply_message_id = $5, finished_at = now()
      where id = $1`,
    [id, result.outcome, result.reason, result.queryId, result.replyMessageId],
  );
}
