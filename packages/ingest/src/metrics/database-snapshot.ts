import { recentRetrievalLatency, type Database } from '@brain/db';
import type { DatabaseSnapshot } from '@brain/observability';
import { failedJobsByCode } from '../queue/failed-by-code.ts';
import { queueStats } from '../queue/queue-stats.ts';

/**
 * The database side of a metrics scrape: what every process (web, workers, CLI) left in the
 * tables. The web's /metrics and a separate worker's read the same, so it lives below both.
 */
export async function databaseSnapshot(db: Database): Promise<DatabaseSnapshot> {
  const [queue, failed, retrieval] = await Promise.all([queueStats(db), failedJobsByCode(db), recentRetrievalLatency(db)]);
  return {
    queued: queue.queued,
    running: queue.running,
    oldestQueuedSeconds: queue.oldestQueuedSeconds,
    failedLastHourByCode: failed,
    retrieval: { count: retrieval.count, p50Seconds: retrieval.p50Ms / 1000, p95Seconds: retrieval.p95Ms / 1000, p99Seconds: retrieval.p99Ms / 1000 },
  };
}
