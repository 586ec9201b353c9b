import { withService, type Database } from '@brain/db';

/** Edits of a burst (a typo fixed twice, a bulk delete) wait this long, so one pass covers them. */
export const DAY_SYNC_DELAY_MS = 2_000;
const EPOCH_MS = 1_420_070_400_000n;

/** The UTC day Discord made a message, from its id: the day source it belongs to. */
export function dayOfMessage(messageId: string): string | undefined {
  if (!/^\d{17,20}$/.test(messageId)) return undefined;
  return new Date(Number((BigInt(messageId) >> 22n) + EPOCH_MS)).toISOString().slice(0, 10);
}

/**
 * Messages of a synced channel (outside its threads) were edited or deleted: queues a pass over
 * the days they were posted on (sync_channel_days), unless the channel is not synced, is a forum
 * or is paused. One queued pass per channel (a partial unique index) gathers every day asked for
 * until it starts; an edit while it runs queues the next. Returns whether a pass is now queued.
 * As the service: the Gateway acts for the workspace, and merging days updates a job's payload.
 */
export async function queueDaySync(db: Database, input: { workspaceId: string; channelId: string; messageIds: readonly string[] }): Promise<boolean> {
  const days = [...new Set(input.messageIds.map(dayOfMessage).filter((d): d is string => d !== undefined))].sort();
  if (days.length === 0) return false;
  const rows = await withService(db, (tx) =>
    tx.query(
      `insert into jobs as j (workspace_id, task, payload, max_attempts, run_at)
       select c.workspace_id, 'sync_channel_days', jsonb_build_object('synced_channel_id', c.id::text, 'reason', 'edit', 'days', to_jsonb($3::text[])), 8,
              now() + make_interval(secs => $4::float8 / 1000)
       from synced_channels c
       where c.workspace_id = $1 and c.channel_id = $2 and c.kind <> 'forum' and c.state <> 'paused'
       on conflict ((payload ->> 'synced_channel_id')) where task = 'sync_channel_days' and status = 'queued'
       do update set payload = jsonb_set(j.payload, '{days}',
         (select to_jsonb(array_agg(distinct d order by d)) from (
            select jsonb_array_elements_text(j.payload -> 'days') as d
            union select unnest($3::text[])) all_days))
       returning j.id`,
      [input.workspaceId, input.channelId, days, DAY_SYNC_DELAY_MS],
    ),
  );
  return rows.length > 0;
}
