import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What the Discord surface and the web route report about interactions. Packages receive this
 * narrow interface (or nothing), never the registry: the process that serves /metrics owns it.
 */
export interface InteractionMetrics {
  /** The HTTP acknowledgement: how it ended (`deferred`, `replied`, `pong`, `invalid_signature`, …) and how long it took. */
  acknowledged(outcome: string, seconds: number): void;
  /** The work after a deferred acknowledgement: `done`, `failed`, `stopped`, `duplicate`, `not_entitled`. */
  finished(command: string, outcome: string): void;
}

/** What the worker reports after each job. */
export interface JobMetrics {
  finished(task: string, outcome: 'done' | 'retrying' | 'failed', code: string | undefined, seconds: number): void;
}

/** Read from the database at scrape time, so every process (web, workers, CLI) is counted. */
export interface DatabaseSnapshot {
  queued: number;
  running: number;
  oldestQueuedSeconds: number;
  /** Jobs that failed for good in the last hour, by error code. */
  failedLastHourByCode: Record<string, number>;
  /** Search-stage latency of the asks recorded in the last five minutes (any process). */
  retrieval: { count: number; p50Seconds: number; p95Seconds: number; p99Seconds: number };
}

export interface BrainMetrics {
  interactions: InteractionMetrics;
  jobs: JobMetrics;
  /** Prometheus text exposition; `snapshot` runs first and fills the database gauges. */
  render(snapshot?: () => Promise<DatabaseSnapshot>, onSnapshotError?: (error: unknown) => void): Promise<string>;
  readonly contentType: string;
}

// Discord allows 3 s for the acknowledgement; the buckets resolve the part that matters.
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];
const JOB_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** One registry per process (no prom-client default registry: tests build as many as they like). */
export function createMetrics(): BrainMetrics {
  const registry = new Registry();
  const interactionsAcked = new Counter({
    name: 'brain_interactions_total',
    help: 'Interactions received on POST /interactions, by how the acknowledgement ended.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const ackSeconds = new Histogram({
    name: 'brain_interaction_ack_seconds',
    help: 'Time from receiving an interaction to sending its acknowledgement (Discord allows 3 s).',
    buckets: ACK_BUCKETS,
    registers: [registry],
  });
  const interactionWork = new Counter({
    name: 'brain_interaction_work_total',
    help: 'Work after a deferred acknowledgement (answers, saves), by command and outcome.',
    labelNames: ['command', 'outcome'],
    registers: [registry],
  });
  const jobsFinished = new Counter({
    name: 'brain_jobs_finished_total',
    help: 'Jobs this process ran, by task and outcome (done, retrying, failed).',
    labelNames: ['task', 'outcome'],
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'brain_job_failures_total',
    help: 'Job attempts this process saw fail, by task and error code (retries included).',
    labelNames: ['task', 'code'],
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'brain_job_duration_seconds',
    help: 'Run time of jobs this process ran, by task.',
    labelNames: ['task'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const queued = new Gauge({ name: 'brain_jobs_queued', help: 'Jobs waiting in the queue (all workers), read at scrape time.', registers: [registry] });
  const running = new Gauge({ name: 'brain_jobs_running', help: 'Jobs held by a worker right now (all workers).', registers: [registry] });
  const oldest = new Gauge({
    name: 'brain_jobs_oldest_queued_seconds',
    help: 'Age of the oldest job that is due and waiting (0 when none): workers falling behind show here first.',
    registers: [registry],
  });
  const failedLastHour = new Gauge({
    name: 'brain_jobs_failed_last_hour',
    help: 'Jobs that failed for good in the last hour (all workers), by error code.',
    labelNames: ['code'],
    registers: [registry],
  });
  const retrieval = new Gauge({
    name: 'brain_retrieval_seconds',
    help: 'Search-stage latency of asks in the last 5 minutes (all processes, from the queries table), by quantile.',
    labelNames: ['quantile'],
    registers: [registry],
  });
  const retrievals = new Gauge({
    name: 'brain_retrievals_last_5m',
    help: 'Asks that reached retrieval in the last 5 minutes (all processes).',
    registers: [registry],
  });
  const scrapeErrors = new Counter({
    name: 'brain_metrics_snapshot_errors_total',
    help: 'Scrapes whose database snapshot failed (the database gauges then keep their last values).',
    registers: [registry],
  });

  return {
    contentType: registry.contentType,
    interactions: {
      acknowledged(outcome, seconds) {
        interactionsAcked.inc({ outcome });
        ackSeconds.observe(seconds);
      },
      finished(command, outcome) {
        interactionWork.inc({ command, outcome });
      },
    },
    jobs: {
      finished(task, outcome, code, seconds) {
        jobsFinished.inc({ task, outcome });
        jobSeconds.observe({ task }, seconds);
        if (outcome !== 'done') jobFailures.inc({ task, code: code ?? 'UNKNOWN' });
      },
    },
    async render(snapshot, onSnapshotError) {
      if (snapshot) {
        try {
          const s = await snapshot();
          queued.set(s.queued);
          running.set(s.running);
          oldest.set(s.oldestQueuedSeconds);
          // A code that stopped failing must drop back to nothing, not keep its old value.
          failedLastHour.reset();
          for (const [code, count] of Object.entries(s.failedLastHourByCode)) failedLastHour.set({ code }, count);
          retrievals.set(s.retrieval.count);
          retrieval.set({ quantile: '0.5' }, s.retrieval.p50Seconds);
          retrieval.set({ quantile: '0.95' }, s.retrieval.p95Seconds);
          retrieval.set({ quantile: '0.99' }, s.retrieval.p99Seconds);
        } catch (error) {
          scrapeErrors.inc();
          onSnapshotError?.(error);
        }
      }
      return registry.metrics();
    },
  };
}
