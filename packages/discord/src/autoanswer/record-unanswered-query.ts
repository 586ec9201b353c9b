import type { Queryable } from '@brain/db';

/**
 * The queries row of a trigger that never reached the answering pipeline (the billing allowance,
 * the channel's rate limit, an empty post): every auto-answer and follow-up trigger has one, with
 * its surface (`auto`, `follow_up`) and the code of why, so the questions page and the dashboard count it with the rest.
 */
export async function recordUnansweredQuery(
  tx: Queryable,
  input: { workspaceId: string; question: string; askedBy: string; interactionId: string; errorCode: string; surface?: 'auto' | 'follow_up' },
): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into public.queries (workspace_id, question, answer, grounded, answerer, surface, asked_by, interaction_id, error_code)
     values ($1, $2, null, false, 'none', $6, $3, $4, $5)
     returning id`,
    [input.workspaceId, input.question || '(no text)', input.askedBy, input.interactionId, input.errorCode, input.surface ?? 'auto'],
  );
  if (!row) throw new Error('recordUnansweredQuery: the insert returned no id');
  return row.id;
}

/** The code at the head of an outcome's reason ("AUTOANSWER_RATE_LIMITED: …"), else the outcome's own. */
export function errorCodeOf(reason: string | null, outcome: string): string {
  return /^[A-Z][A-Z0-9_]{1,63}(?=$|:)/.exec(reason ?? '')?.[0] ?? outcome.toUpperCase();
}
