import { withService, type Database } from '@brain/db';

/**
 * Gives a job back untouched when a worker stops (SIGTERM) before finishing it: queued again at
 * once, and the attempt does not count against it.
 */
export async function releaseJob(db: Database, jobId: string, workerId: string): Promise<boolean> {
  const rows = await withService(db, (tx) =>
    tx.query(
      `update jobs set status = 'queued', run_at = now(), locked_by = null, lease_expires_at = null,
         attempts = greatest(attempts - 1, 0)
       where id = $1 and locked_by = $2 and status = 'running' returning id`,
      [jobId, workerId],
    ),
  );
  return rows.length === 1;
}
