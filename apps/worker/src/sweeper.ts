import cron from 'node-cron';
import type { Database } from '@brain/db';
import { enqueueDueSyncs, enqueueLaggingEveryoneFlags, enqueueStaleRefreshes, purgeForgottenSources, requeueExpiredJobs } from '@brain/ingest';
import type { Logger } from '@brain/observability';

export interface SweepOptions {
  /** URL sources indexed longer ago than this are refreshed (conditional GET; unchanged pages embed nothing). */
  refreshAfterMs: number;
  /** /sync channels last synced longer ago than this get a pass (default 15 minutes). */
  syncEveryMs?: number;
}

export interface SweepResult {
  requeued: number;
  failed: number;
  refreshesQueued: number;
  purged: number;
  syncsQueued: number;
  everyoneFlagsQueued: number;
}

/**
 * One sweep: recover jobs of dead workers, give up on poison jobs, queue refreshes of stale URLs,
 * queue a pass over synced channels that are due, queue a rewrite of everyone flags that lag their facts, delete sources forgotten past their restore window. Retries need no sweep: a failed attempt is
 * re-queued with its backoff and the workers pick it up when it is due.
 */
export async function sweep(db: Database, options: SweepOptions): Promise<SweepResult> {
  const { requeued, failed } = await requeueExpiredJobs(db);
  const refreshesQueued = await enqueueStaleRefreshes(db, options.refreshAfterMs);
  const syncsQueued = await enqueueDueSyncs(db, options.syncEveryMs ?? 15 * 60_000);
  const everyoneFlagsQueued = await enqueueLaggingEveryoneFlags(db);
  const purged = await purgeForgottenSources(db);
  return { requeued, failed, refreshesQueued, purged, syncsQueued, everyoneFlagsQueued };
}

/** The sweep every 15 minutes, in-process (brain start / brain worker). `brain sweep` runs it once. */
export function scheduleSweeper(db: Database, options: SweepOptions, logger: Logger): { stop(): void } {
  const task = cron.schedule('*/15 * * * *', async () => {
    try {
      const result = await sweep(db, options);
      logger.info(result, 'sweep done');
    } catch (error) {
      logger.error({ err: error }, 'sweep failed');
    }
  }, { noOverlap: true, name: 'brain-sweeper' });
  return {
    stop: () => {
      void task.stop();
    },
  };
}
