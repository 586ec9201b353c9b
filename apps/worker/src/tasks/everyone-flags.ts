import { completeJob, rewriteEveryoneFlags } from '@brain/ingest';
import type { Task } from './task.ts';

/**
 * Brings a workspace's passages' everyone flags up to its stored guild facts (queued by a facts
 * change, see migration 20261202160000). Each batch is idempotent; the job completes in the
 * transaction that marks the flags current, so a worker killed before it leaves the flags lagging
 * (answers take the by-keys path) and a job that resumes.
 */
export const everyoneFlagsTask: Task = (services, job, workerId, signal) =>
  rewriteEveryoneFlags(services.db, job.workspaceId, { signal, onSettled: (tx) => completeJob(tx, job.id, workerId) });
