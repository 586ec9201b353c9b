import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import { scheduleSweeper, startWorker } from '@brain/worker';
import { buildIngestRuntime } from './ingest.ts';
import { checkEmbeddingModelAtStartup } from './startup-checks.ts';

export interface RunningWorker {
  /** Stops claiming, drains running jobs within `graceMs`, stops the sweeper and the sandboxes. */
  stop(graceMs?: number): Promise<void>;
}

/** The worker and its 15-minute sweeper, as `brain start` and `brain worker` run them. */
export async function runWorker(config: BrainConfig, db: Database, logger: Logger): Promise<RunningWorker> {
  const runtime = buildIngestRuntime(config, db, logger);
  await checkEmbeddingModelAtStartup(db, runtime.services.embedder.model, logger);
  const worker = await startWorker(runtime.services, {
    logger,
    concurrency: config.worker.concurrency,
    leaseMs: config.worker.leaseMs,
  });
  const sweeper = scheduleSweeper(db, { refreshAfterMs: config.worker.refreshAfterMs }, logger);
  return {
    async stop(graceMs) {
      sweeper.stop();
      await worker.stop(graceMs);
      await runtime.close();
    },
  };
}
