import { withService, type Database } from '@brain/db';
import { toJob, type Job, type JobRow } from './job.ts';

export interface ClaimOptions {
  workerId: string;
  limit: number;
  leaseMs: number;
  /** Only these artifacts' jobs (a CLI waiting for its own saves). */
  artifactIds?: string[] | undefined;
}

/**
 * Takes up to `limit` runnable jobs and leases them to this worker. SKIP LOCKED lets any number
 * of workers claim at once without waiting on, or taking, each other's rows.
 */
export async function claimJobs(db: Database, options: ClaimOptions): Promise<Job[]> {
  const rows = await withService(db, (tx) =>
    tx.query<JobRow>(
      `with next as (
         select id from jobs
         where status = 'queued' and run_at <= now()
           and ($4::uuid[] is null or artifact_id = any($4::uuid[]))
         order by run_at, created_at
         limit $2
         for update skip locked
       )
       update jobs j
       set status = 'running', attempts = j.attempts + 1, locked_by = $1,
           lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
       from next
       where j.id = next.id
       returning j.id, j.workspace_id, j.artifact_id, j.task, j.payload, j.attempts, j.max_attempts`,
      [options.workerId, options.limit, options.leaseMs, options.artifactIds ?? null],
    ),
  );
  return rows.map(toJob);
}
