import { withService, type Database } from '@brain/db';

/**
 * Queues a pass over every synced channel (/sync) that is not paused and was last synced longer
 * ago than `everyMs`, in every workspace. A channel with a pass pending is skipped by the
 * partial unique index, so a slow backfill is never queued twice. Paused channels wait for an
 * admin to add them again.
 */
export async function enqueueDueSyncs(db: Database, everyMs: number): Promise<number> {
  const rows = await withService(db, (tx) =>
    tx.query(
      `insert into jobs (workspace_id, task, payload, max_attempts)
       select c.workspace_id, 'sync_channel', jsonb_build_object('synced_channel_id', c.id::text, 'reason', 'resync'), 8
       from synced_channels c
       where c.state <> 'paused'
         and (c.last_synced_at is null or c.last_synced_at < now() - make_interval(secs => $1::float8 / 1000))
       on conflict ((payload ->> 'synced_channel_id')) where task = 'sync_channel' and status in ('queued', 'running') do nothing
       returning id`,
      [everyMs],
    ),
  );
  return rows.length;
}
