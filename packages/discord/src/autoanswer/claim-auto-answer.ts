import type { Queryable } from '@brain/db';

/**
 * Claims a thread's one auto-answer before any work: the row is the record of the handled
 * message, so the same MESSAGE_CREATE replayed after a RESUME, a second message in the thread,
 * or another worker's copy of the event finds it taken. Returns the claim's id, or undefined.
 */
export async function claimAutoAnswer(tx: Queryable, input: { workspaceId: string; channelId: string; threadId: string; messageId: string }): Promise<string | undefined> {
  const [row] = await tx.query<{ id: string }>(
    `insert into public.auto_answers (workspace_id, channel_id, thread_id, message_id)
     values ($1, $2, $3, $4)
     on conflict (workspace_id, thread_id) do nothing
     returning id`,
    [input.workspaceId, input.channelId, input.threadId, input.messageId],
  );
  return row?.id;
}
