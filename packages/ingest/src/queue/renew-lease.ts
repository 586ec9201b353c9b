import { withService, type Database } from '@brain/db';

/** Extends the lease while the work runs. False means the lease was lost: stop, someone else owns the job. */
export async function renewLease(db: Database, jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
  const rows = await withService(db, (tx) =>
    tx.query(
      `update jobs set lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
       where id = $1 and locked_by = $2 and status = 'running'
       returning id`,
      [jobId, workerId, leaseMs],
    ),
  );
  return rows.length === 1;
}
