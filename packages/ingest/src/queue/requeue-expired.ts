import { withService, type Database } from '@brain/db';

export interface RequeueResult {
  requeued: number;
  failed: number;
}

/**
 * The sweeper's first duty: a job whose lease ran out belongs to a worker that died (crash,
 * SIGKILL, OOM). It runs again; one that has already used all its attempts — a poison job that
 * kills whoever runs it — ends failed with WORKER_LOST instead of killing workers forever.
 * `deadHolders`: worker ids known to be dead (see deadLocalWorkers in @brain/worker), whose jobs
 * are taken back the same way without waiting for their leases to run out.
 */
export async function requeueExpiredJobs(db: Database, deadHolders: readonly string[] = []): Promise<RequeueResult> {
  const lost = `status = 'running' and (lease_expires_at < now() or locked_by = any($1::text[]))`;
  return withService(db, async (tx) => {
    const failed = await tx.query<{ artifact_id: string | null }>(
      `update jobs set status = 'failed', finished_at = now(), locked_by = null, lease_expires_at = null,
         last_error_code = 'WORKER_LOST', last_error = 'The worker running this job stopped before finishing it, on every attempt.'
       where ${lost} and attempts >= max_attempts
       returning artifact_id`,
      [deadHolders],
    );
    const ids = failed.map((r) => r.artifact_id).filter((id): id is string => id !== null);
    if (ids.length > 0) {
      await tx.query(
        `update artifacts set status = 'failed', error_code = 'WORKER_LOST',
           error_message = 'Indexing this source stopped the worker every time it was tried. Check that the file is not damaged, or save a smaller version.'
         where id = any($1::uuid[]) and not exists (select 1 from chunks c where c.artifact_id = artifacts.id and c.is_live)`,
        [ids],
      );
    }
    const requeued = await tx.query(
      `update jobs set status = 'queued', run_at = now(), locked_by = null, lease_expires_at = null
       where ${lost}
       returning id`,
      [deadHolders],
    );
    return { requeued: requeued.length, failed: failed.length };
  });
}
