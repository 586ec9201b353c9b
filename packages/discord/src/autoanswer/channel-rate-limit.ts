import type { Queryable } from '@brain/db';

/** The hour a channel's auto-answer allowance (autoanswer_channels.max_per_hour) counts over. */
export const RATE_WINDOW_MS = 60 * 60_000;

/**
 * Whether the channel already had its allowance of answers in the last hour (first answers and
 * follow-ups together: both are the bot talking there), inside the transaction that claims the
 * next one. The channel's row is locked first, so two posts claimed at once are counted one after
 * the other and never both slip under the limit. Rate-limited claims do not count: a flood does
 * not keep the channel closed after it ends.
 */
export async function channelOverLimit(tx: Queryable, input: { workspaceId: string; channelId: string; maxPerHour: number }): Promise<boolean> {
  await tx.query('select 1 from public.autoanswer_channels where workspace_id = $1 and channel_id = $2 for update', [input.workspaceId, input.channelId]);
  const [row] = await tx.query<{ n: number }>(
    `select (select count(*) from public.auto_answers
              where workspace_id = $1 and channel_id = $2 and outcome <> 'rate_limited'
                and created_at > now() - $3 * interval '1 millisecond')
          + (select count(*) from public.follow_ups
              where workspace_id = $1 and channel_id = $2 and outcome <> 'rate_limited'
                and created_at > now() - $3 * interval '1 millisecond')::int as n`,
    [input.workspaceId, input.channelId, RATE_WINDOW_MS],
  );
  return (row?.n ?? 0) >= input.maxPerHour;
}
