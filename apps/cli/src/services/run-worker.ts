import type { DiscordHistory } from '@brain/discord';
import type { JobMetrics } from '@brain/observability';
import { scheduleSweeper, startWorker } from '@brain/worker';
import type { Composition } from '../compose.ts';

export interface RunningWorker {
  /** Stops claiming, drains running jobs within `graceMs` (default: the configured shutdown grace), stops the sweeper. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The worker and its 15-minute sweeper, as `brain start`, `brain worker` and embedded `brain mcp`
 * run them, on the composition's ingestion services (whose sandboxes `Composition.close` stops).
 */
export async function runWorker(
  app: Composition,
  metrics?: JobMetrics,
  /** The playground's pretend server (`brain start` with the playground on): /sync of its channels reads it. */
  pretendHistory?: DiscordHistory,
): Promise<RunningWorker> {
  const { config, db, logger } = app;
  await app.checkStartup();
  const worker = await startWorker(app.ingest(pretendHistory).services, {
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
    },
  };
}
