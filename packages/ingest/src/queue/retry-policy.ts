import type { AppError } from '@brain/errors';
import type { Job } from './job.ts';

/** Where a job records the hosts that already timed out on it (jobs.payload). */
const TIMED_OUT_HOSTS = 'timed_out_hosts';

export interface RetryDecision {
  retry: boolean;
  /** Keys to merge into the job's payload with the failure. */
  payloadPatch: Record<string, unknown> | null;
}

/**
 * Whether a failed attempt runs again. A retryable error with attempts left does, except a fetch
 * timeout from a host that already timed out on this job: a host that never answers would
 * otherwise hold a worker slot for the full timeout on every one of the job's attempts.
 */
export function decideRetry(job: Job, error: AppError): RetryDecision {
  if (!error.retryable || job.attempts >= job.maxAttempts) return { retry: false, payloadPatch: null };
  const host = timedOutHost(error);
  if (host === null) return { retry: true, payloadPatch: null };
  const seen = timedOutHosts(job);
  if (seen.includes(host)) return { retry: false, payloadPatch: null };
  return { retry: true, payloadPatch: { [TIMED_OUT_HOSTS]: [...seen, host] } };
}

function timedOutHost(error: AppError): string | null {
  if (error.code !== 'FETCH_TIMEOUT') return null;
  const url = error.details?.url;
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

function timedOutHosts(job: Job): string[] {
  const value = job.payload[TIMED_OUT_HOSTS];
  return Array.isArray(value) ? value.filter((h): h is string => typeof h === 'string') : [];
}
