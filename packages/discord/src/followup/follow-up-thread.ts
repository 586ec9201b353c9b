import { withWorkspace, type Database, type Queryable } from '@brain/db';

/** The bot's earlier answer in a thread, when it answered one there. */
export interface AnsweredThread {
  /** The thread's auto-answer: "Still need help?" under a follow-up names it, as under the first answer. */
  autoAnswerId: string;
  /** What was asked in the thread so far, oldest first: the post's question, then each follow-up as rewritten. */
  earlier: string[];
}

/** How many earlier questions a rewrite sees: the recent conversation, not the whole thread. */
const RECENT = 5;

/**
 * The thread's conversation with the bot, inside a tenant transaction: undefined unless the bot
 * auto-answered it (outcome answered). The questions come from the records (queries and
 * follow_ups), never from the bot's own messages.
 */
export async function answeredThread(tx: Queryable, workspaceId: string, threadId: string): Promise<AnsweredThread | undefined> {
  const [first] = await tx.query<{ id: string; question: string | null }>(
    `select a.id, q.question from public.auto_answers a left join public.queries q on q.id = a.query_id
      where a.workspace_id = $1 and a.thread_id = $2 and a.outcome = 'answered'`,
    [workspaceId, threadId],
  );
  if (!first) return undefined;
  const later = await tx.query<{ question: string }>(
    `select coalesce(rewritten, original) as question from public.follow_ups
      where workspace_id = $1 and thread_id = $2 and outcome <> 'pending' order by created_at desc limit $3`,
    [workspaceId, threadId, RECENT],
  );
  const earlier = [...(first.question ? [first.question] : []), ...later.map((r) => r.question).reverse()];
  return { autoAnswerId: first.id, earlier: earlier.slice(-RECENT) };
}

/**
 * Waits (up to `withinMs`) while the thread's first answer is still being given. Its reply is
 * posted before its row records the outcome, so a reply to it that arrives in between would
 * otherwise find the thread "not answered" and be dropped without a word.
 */
export async function firstAnswerSettled(db: Database, workspaceId: string, threadId: string, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const [row] = await withWorkspace(db, workspaceId, (tx) =>
      tx.query<{ outcome: string }>('select outcome from public.auto_answers where workspace_id = $1 and thread_id = $2', [workspaceId, threadId]),
    );
    if (row?.outcome !== 'pending' || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Claims a follow-up before any work: a replayed MESSAGE_CREATE or a second worker finds it taken. */
export async function claimFollowUp(
  tx: Queryable,
  input: { workspaceId: string; channelId: string; threadId: string; messageId: string; askedBy: string; original: string },
): Promise<string | undefined> {
  const [row] = await tx.query<{ id: string }>(
    `insert into public.follow_ups (workspace_id, channel_id, thread_id, message_id, asked_by, original)
     values ($1, $2, $3, $4, $5, $6) on conflict (workspace_id, message_id) do nothing returning id`,
    [input.workspaceId, input.channelId, input.threadId, input.messageId, input.askedBy, input.original.slice(0, 6000)],
  );
  return row?.id;
}

export async function recordRewrite(tx: Queryable, id: string, rewritten: string, by: string): Promise<void> {
  await tx.query('update public.follow_ups set rewritten = $2, rewritten_by = $3 where id = $1', [id, rewritten, by]);
}

export type FollowUpOutcome = 'answered' | 'uncovered' | 'not_entitled' | 'forbidden' | 'failed' | 'rate_limited';

export async function finishFollowUp(
  tx: Queryable,
  id: string,
  result: { outcome: FollowUpOutcome; reason: string | null; queryId: string | null; replyMessageId: string | null },
): Promise<void> {
  await tx.query(
    `update public.follow_ups set outcome = $2, reason = $3, query_id = $4, reply_message_id = $5, finished_at = now() where id = $1`,
    [id, result.outcome, result.reason, result.queryId, result.replyMessageId],
  );
}
