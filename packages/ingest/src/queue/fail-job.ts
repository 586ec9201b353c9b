import { withService, type Database, type Queryable } from '@brain/db';
import type { AppError } from '@brain/errors';
import { retryDelayMs, type Job } from './job.ts';
import { decideRetry } from './retry-policy.ts';

export type FailOutcome = 'retrying' | 'failed' | 'lost';

/**
 * Records a failed attempt. A retryable error with attempts left goes back to the queue after a
 * backoff (a fetch timeout only once per host: see decideRetry); anything else ends the job
 * `failed`, and its artifact too, with the reason code — unless the artifact still has live
 * passages from an earlier success (a failed refresh must not take a working source away; the
 * error is kept in its metadata instead).
 */
export async function failJob(db: Database, job: Job, workerId: string, error: AppError): Promise<FailOutcome> {
  const { retry, payloadPatch } = decideRetry(job, error);
  return withService(db, async (tx) => {
    const rows = await tx.query(
      retry
        ? `update jobs set status = 'queued', run_at = now() + make_interval(secs => $5::float8 / 1000),
             locked_by = null, lease_expires_at = null, last_error_code = $3, last_error = $4,
             payload = payload || coalesce($6::jsonb, '{}'::jsonb)
           where id = $1 and locked_by = $2 and status = 'running' returning id`
        : `update jobs set status = 'failed', finished_at = now(), locked_by = null, lease_expires_at = null,
             last_error_code = $3, last_error = $4
           where id = $1 and locked_by = $2 and status = 'running' returning id`,
      retry
        ? [job.id, workerId, error.code, error.message.slice(0, 2000), retryDelayMs(job.attempts), payloadPatch ? JSON.stringify(payloadPatch) : null]
        : [job.id, workerId, error.code, error.message.slice(0, 2000)],
    );
    if (rows.length === 0) return 'lost';
    if (retry) return 'retrying';
    if (job.artifactId) await markArtifactFailed(tx, job.artifactId, error);
    return 'failed';
  });
}

async function markArtifactFailed(tx: Queryable, artifactId: string, error: AppError): Promise<void> {
  await tx.query(
    `update artifacts a set
       status = case when exists (select 1 from chunks c where c.artifact_id = a.id and c.is_live) then 'ready' else 'failed' end,
       error_code = case when exists (select 1 from chunks c where c.artifact_id = a.id and c.is_live) then null else $2 end,
       error_message = case when exists (select 1 from chunks c where c.artifact_id = a.id and c.is_live) then null else $3 end,
       metadata = a.metadata || jsonb_build_object('last_error', jsonb_build_object('code', $2::text, 'message', $3::text, 'at', now()))
     where a.id = $1`,
    [artifactId, error.code, error.toUserString().slice(0, 1000)],
  );
}
