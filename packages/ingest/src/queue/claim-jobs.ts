import { withService, type Database } from '@brain/db';
import { toJob, type Job, type JobRow } from './job.ts';

/**
 * Jobs one workspace may have running at once, across every worker, unless configured: with the
 * default two slots per worker, one workspace's flood (pages that never answer, say) then always
 * leaves a slot for the next workspace's save.
 */
export const DEFAULT_JOBS_PER_WORKSPACE = 1;

export interface ClaimOptions {
  workerId: string;
  limit: number;
  leaseMs: number;
  /** Most jobs of one workspace running at once, counted across all workers. */
  perWorkspace?: number | undefined;
  /** Only these artifacts' jobs (a CLI waiting for its own saves). */
  artifactIds?: string[] | undefined;
}

/**
 * Takes up to `limit` runnable jobs and leases them to this worker, one at a time to the
 * workspace with the fewest running jobs (supabase/migrations/20261201075000_…). SKIP LOCKED and
 * per-workspace advisory locks let any number of workers claim at once without waiting on each
 * other or pushing a workspace past its share.
 */
export async function claimJobs(db: Database, options: ClaimOptions): Promise<Job[]> {
  const rows = await withService(db, (tx) =>
    tx.query<JobRow>(
      `select id, workspace_id, artifact_id, task, payload, attempts, max_attempts
       from brain.claim_jobs($1, $2, $3::float8, $4, $5::uuid[])`,
      [options.workerId, options.limit, options.leaseMs, options.perWorkspace ?? DEFAULT_JOBS_PER_WORKSPACE, options.artifactIds ?? null],
    ),
  );
  return rows.map(toJob);
}
