import type { Queryable } from '@brain/db';

export type SilenceResult =
  | { kind: 'unknown' }
  | { kind: 'no-staff-role'; channelId: string }
  | { kind: 'already'; channelId: string; threadId: string; silencedAt: Date }
  | { kind: 'silenced'; channelId: string; threadId: string; staffRoleId: string };

/**
 * "Still need help?": marks the auto-answer's thread silenced, once, when its channel has a staff
 * role to ping. Without one nothing changes: nobody would be told, so the bot keeps its place.
 */
export async function silenceThread(tx: Queryable, input: { workspaceId: string; autoAnswerId: string; userId: string }): Promise<SilenceResult> {
  const [row] = await tx.query<{ channel_id: string; thread_id: string; silenced_at: Date | string | null; staff_role_id: string | null }>(
    `select a.channel_id, a.thread_id, a.silenced_at, c.staff_role_id
       from public.auto_answers a
       left join public.autoanswer_channels c on c.workspace_id = a.workspace_id and c.channel_id = a.channel_id
      where a.id = $1 and a.workspace_id = $2
      for update of a`,
    [input.autoAnswerId, input.workspaceId],
  );
  if (!row) return { kind: 'unknown' };
  if (row.silenced_at) return { kind: 'already', channelId: row.channel_id, threadId: row.thread_id, silencedAt: new Date(row.silenced_at) };
  if (!row.staff_role_id) return { kind: 'no-staff-role', channelId: row.channel_id };
  await tx.query('update public.auto_answers set silenced_at = now(), silenced_by = $2 where id = $1', [input.autoAnswerId, input.userId]);
  return { kind: 'silenced', channelId: row.channel_id, threadId: row.thread_id, staffRoleId: row.staff_role_id };
}

/** The ping could not be posted: the thread is not silenced after all, so the next press tries again. */
export async function unsilenceThread(tx: Queryable, autoAnswerId: string): Promise<void> {
  await tx.query('update public.auto_answers set silenced_at = null, silenced_by = null where id = $1', [autoAnswerId]);
}

/** Whether "Still need help?" silenced the bot in this thread (follow-ups ask this before answering). */
export async function isThreadSilenced(tx: Queryable, workspaceId: string, threadId: string): Promise<boolean> {
  const [row] = await tx.query<{ silenced: boolean }>(
    'select exists (select 1 from public.auto_answers where workspace_id = $1 and thread_id = $2 and silenced_at is not null) as silenced',
    [workspaceId, threadId],
  );
  return row?.silenced === true;
}
