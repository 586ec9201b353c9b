import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { DiscordHistory } from '@brain/discord';
import type { JobMetrics, Logger } from '@brain/observability';
import { scheduleSweeper, startWorker } from '@brain/worker';
import { buildIngestRuntime } from './ingest.ts';
import { checkEmbeddingModelAtStartup } from './startup-checks.ts';

export interface RunningWorker {
  /** Stops claiming, drains running jobs within `graceMs` (default: the configured shutdown grace), stops the sweeper and the sandboxes. */
  stop(graceMs?: number): Promise<void>;
}

/** The worker and its 15-minute sweeper, as `brain start` and `brain worker` run them. */
export async function runWorker(
  config: BrainConfig,
  db: Database,
  logger: Logger,
  metrics?: JobMetrics,
  /** The playground's pretend server (`brain start` with the playground on): /sync of its channels reads it. */
  pretendHistory?: DiscordHistory,
): Promise<RunningWorker> {
  const runtime = buildIngestRuntime(config, db, logger, undefined, pretendHistory);
  await checkEmbeddingModelAtStartup(db, runtime.services.embedder.model, logger);
  const worker = await startWorker(runtime.services, {
    logger,
    concurrency: config.worker.concurrency,
    jobsPerWorkspace: config.worker.jobsPerWorkspace,
    leaseMs: config.worker.leaseMs,
    ...(metrics
      ? {
          onJobDone: (job, outcome, ms) =>
            metrics.finished(job.task, outcome.ok ? 'done' : outcome.final ? 'failed' : 'retrying', outcome.ok ? undefined : outcome.error.code, ms / 1000),
        }
      : {}),
  });
  const sweeper = scheduleSweeper(db, { refreshAfterMs: config.worker.refreshAfterMs, syncEveryMs: config.worker.syncEveryMs }, logger);
  return {
    async stop(graceMs) {
      sweeper.stop();
      await worker.stop(graceMs ?? config.shutdownGraceMs);
      await runtime.close();
    },
  };
}
