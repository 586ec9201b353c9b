import type { Queryable } from '@brain/db';

/**
 * Marks the job done inside the caller's transaction (acting as service_role), only while this
 * worker still holds it. The ingestion swap calls it in the same commit as its data, so a worker
 * whose lease expired can never commit an effect twice.
 */
export async function completeJob(tx: Queryable, jobId: string, workerId: string): Promise<boolean> {
  const rows = await tx.query(
    `update jobs set status = 'done', finished_at = now(), locked_by = null, lease_expires_at = null,
       last_error_code = null, last_error = null
     where id = $1 and locked_by = $2 and status = 'running'
     returning id`,
    [jobId, workerId],
  );
  return rows.length === 1;
}

/** Locks the job row for the rest of the transaction if this worker still holds it. */
export async function holdJob(tx: Queryable, jobId: string, workerId: string): Promise<boolean> {
  const rows = await tx.query(
    `select id from jobs where id = $1 and locked_by = $2 and status = 'running' for update`,
    [jobId, workerId],
  );
  return rows.length === 1;
}
