import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { AppError, coerceError } from '@brain/errors';
import { claimJobs, failJob, releaseJob, renewLease, requeueExpiredJobs, type IngestServices, type Job } from '@brain/ingest';
import type { Logger } from '@brain/observability';
import { deadLocalWorkers, workerStarted, workerStopped } from './dead-local-workers.ts';
import { tasks as defaultTasks, type Task } from './tasks/index.ts';

export interface WorkerOptions {
  logger: Logger;
  /** Jobs run at once by this worker. */
  concurrency?: number;
  /** Most jobs of one workspace running at once across all workers (default DEFAULT_JOBS_PER_WORKSPACE). */
  jobsPerWorkspace?: number;
  /** How long a claimed job stays ours without a heartbeat. */
  leaseMs?: number;
  /** Longest wait between looks at the queue when no notification arrives. */
  pollMs?: number;
  /**
   * How often to take back jobs whose worker died: expired leases, and jobs held by a dead worker
   * of this machine (taken back at once, lease or not). Default: every 5 s, or once per lease if shorter.
   */
  recoverEveryMs?: number;
  /** Only these artifacts' jobs (`brain save --wait`). */
  artifactIds?: string[];
  tasks?: Record<string, Task>;
  workerId?: string;
  /** Called after every job, for progress displays and metrics. */
  onJobDone?: (job: Job, outcome: { ok: true; result: unknown } | { ok: false; error: AppError; final: boolean }, ms: number) => void;
}

export interface WorkerHandle {
  readonly workerId: string;
  /** Stops claiming, lets running jobs finish for up to `graceMs`, then gives the rest back to the queue. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when no job is running and none was claimable at the last look. */
  idle(): Promise<void>;
}

/**
 * The ingestion worker: picks jobs up the moment they are queued (LISTEN/NOTIFY, with a short poll
 * as a safety net), holds each under a lease renewed by a heartbeat, and fails, retries or
 * releases every job explicitly. Safe to run many of, on many machines.
 */
export async function startWorker(services: IngestServices, options: WorkerOptions): Promise<WorkerHandle> {
  const concurrency = options.concurrency ?? 2;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 1_000;
  const taskTable = options.tasks ?? defaultTasks;
  const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const log = options.logger.child({ workerId });

  const running = new Map<string, { job: Job; abort: AbortController; done: Promise<void> }>();
  let stopping = false;
  // A notification or stop that arrives while the loop is busy claiming must not be lost: it is
  // remembered here and cuts the next wait short.
  let woken = false;
  let wakeWaiter: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeWaiter?.();
  };
  let idleWaiters: (() => void)[] = [];
  let lastLookFoundNothing = false;
  // Jobs finished so far. A look during which one finished proves nothing: on PostgreSQL the claim
  // runs on another connection, and its snapshot may still count that job against the workspace's cap.
  let finishedJobs = 0;

  const unlisten = await services.db.listen('brain_jobs', wake).catch((error: unknown) => {
    log.warn({ err: error }, 'LISTEN unavailable; polling only');
    return async () => {};
  });

  async function runJob(job: Job, abort: AbortController): Promise<void> {
    const jobLog = log.child({ jobId: job.id, task: job.task, artifactId: job.artifactId, attempt: job.attempts });
    const heartbeat = setInterval(() => {
      renewLease(services.db, job.id, workerId, leaseMs)
        .then((held) => {
          if (!held) {
            jobLog.warn('lease lost; abandoning the job');
            abort.abort(new AppError({ code: 'LEASE_LOST', message: 'lease lost' }));
          }
        })
        .catch((error: unknown) => jobLog.warn({ err: error }, 'lease renewal failed'));
    }, Math.max(250, Math.floor(leaseMs / 3)));
    const started = Date.now();
    try {
      const task = taskTable[job.task];
      if (!task) throw new AppError({ code: 'UNKNOWN_TASK', message: `No task named "${job.task}".`, retryable: false });
      const result = await task(services, job, workerId, abort.signal);
      jobLog.info({ ms: Date.now() - started, result }, 'job done');
      options.onJobDone?.(job, { ok: true, result }, Date.now() - started);
    } catch (error) {
      const appError = coerceError(abort.signal.aborted && abort.signal.reason instanceof AppError ? abort.signal.reason : error);
      if (appError.code === 'LEASE_LOST' || stopping) {
        jobLog.warn({ code: appError.code }, 'job abandoned');
        return;
      }
      const outcome = await failJob(services.db, job, workerId, appError);
      const level = outcome === 'retrying' ? 'warn' : 'error';
      jobLog[level]({ code: appError.code, err: appError, outcome, ms: Date.now() - started }, 'job failed');
      options.onJobDone?.(job, { ok: false, error: appError, final: outcome === 'failed' }, Date.now() - started);
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      woken = false;
      const free = concurrency - running.size;
      let claimed: Job[] = [];
      const finishedBefore = finishedJobs;
      if (free > 0) {
        try {
          claimed = await claimJobs(services.db, { workerId, limit: free, leaseMs, perWorkspace: options.jobsPerWorkspace, artifactIds: options.artifactIds });
        } catch (error) {
          log.error({ err: error }, 'claiming jobs failed; retrying shortly');
        }
      }
      for (const job of claimed) {
        const abort = new AbortController();
        const done = runJob(job, abort).finally(() => {
          running.delete(job.id);
          finishedJobs++;
          wake();
        });
        running.set(job.id, { job, abort, done });
      }
      lastLookFoundNothing = claimed.length === 0 && finishedJobs === finishedBefore;
      if (lastLookFoundNothing && running.size === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        waiters.forEach((resolve) => resolve());
      }
      if ((claimed.length === 0 || running.size >= concurrency) && !woken && !stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          wakeWaiter = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeWaiter = undefined;
      }
    }
  }

  // A worker killed mid-job (kill -9, OOM, a lost machine) leaves its jobs running on a lease
  // nobody renews. The 15-minute sweeper would take them back eventually; every live worker does
  // it within one lease instead, so a save waits one lease, not a quarter of an hour. A dead
  // worker of this machine is known dead at once (its process is gone): its jobs come back at the
  // next look, and a restarted worker takes its predecessor's back as it starts (the soak's kill
  // -9 cost a save 15 s of lease on top of its own work).
  workerStarted(workerId);
  const recover = async () => {
    if (stopping || options.artifactIds) return;
    try {
      const dead = await deadLocalWorkers(services.db);
      const { requeued, failed } = await requeueExpiredJobs(services.db, dead);
      if (requeued > 0 || failed > 0) {
        log.warn({ requeued, failed, deadWorkers: dead }, 'took back jobs whose worker stopped holding them (dead on this machine, or lease expired)');
        wake();
      }
    } catch (error) {
      log.warn({ err: error }, 'taking back expired jobs failed; next try in one lease');
    }
  };
  const recovery = setInterval(() => void recover(), options.recoverEveryMs ?? Math.min(leaseMs, 5_000));
  recovery.unref();
  await recover();

  const looping = loop();
  log.info({ concurrency, leaseMs, jobsPerWorkspace: options.jobsPerWorkspace }, 'worker started');

  return {
    workerId,
    async stop(graceMs = 20_000) {
      if (stopping) return;
      stopping = true;
      clearInterval(recovery);
      wake();
      await looping;
      const inFlight = [...running.values()];
      if (inFlight.length > 0) {
        log.info({ jobs: inFlight.length, graceMs }, 'draining: waiting for running jobs');
        const finished = Promise.all(inFlight.map((r) => r.done)).then(() => true);
        const timedOut = new Promise<false>((resolve) => setTimeout(() => resolve(false), graceMs).unref());
        if (!(await Promise.race([finished, timedOut]))) {
          for (const r of running.values()) {
            r.abort.abort(new AppError({ code: 'WORKER_STOPPING', message: 'worker stopping' }));
            await releaseJob(services.db, r.job.id, workerId).catch(() => false);
            log.warn({ jobId: r.job.id }, 'released unfinished job back to the queue');
          }
        }
      }
      await unlisten();
      // Only now: while it drained, its jobs were still its own.
      workerStopped(workerId);
      log.info('worker stopped');
    },
    idle() {
      if (lastLookFoundNothing && running.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
