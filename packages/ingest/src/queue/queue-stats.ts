import { withService, type Database } from '@brain/db';

export interface QueueStats {
  queued: number;
  running: number;
  failedLastHour: number;
  /** Age of the oldest job waiting to run, in seconds (0 when none). */
  oldestQueuedSeconds: number;
}

export async function queueStats(db: Database): Promise<QueueStats> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ queued: number; running: number; failed: number; oldest: number }>(
      `select count(*) filter (where status = 'queued')::int as queued,
              count(*) filter (where status = 'running')::int as running,
              count(*) filter (where status = 'failed' and finished_at > now() - interval '1 hour')::int as failed,
              coalesce(extract(epoch from now() - min(created_at) filter (where status = 'queued' and run_at <= now())), 0)::float8 as oldest
       from jobs where status in ('queued', 'running') or finished_at > now() - interval '1 hour'`,
    ),
  );
  return {
    queued: row?.queued ?? 0,
    running: row?.running ?? 0,
    failedLastHour: row?.failed ?? 0,
    oldestQueuedSeconds: Math.round(row?.oldest ?? 0),
  };
}
