import type { FastifyPluginAsync } from 'fastify';
import { recentRetrievalLatency, type Database } from '@brain/db';
import { failedJobsByCode, queueStats } from '@brain/ingest';
import { bearerTokenCheck, type BrainMetrics, type DatabaseSnapshot } from '@brain/observability';
import { useHostGuard } from '../security/host-guard.ts';

export interface MetricsRouteOptions {
  metrics: BrainMetrics;
  db: Database;
  /** BRAIN_METRICS_TOKEN: when set, scrapes must send `Authorization: Bearer <token>`. */
  token: string | undefined;
  publicUrl: string;
}

/** The database side of a scrape: what every process (web, workers, CLI) left in the tables. A separate worker's /metrics reads the same. */
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

/** GET /metrics in Prometheus text format. In-process counters plus a database snapshot per scrape. */
export const metricsRoute: FastifyPluginAsync<MetricsRouteOptions> = async (app, { metrics, db, token, publicUrl }) => {
  const authorized = bearerTokenCheck(token);
  // Without a token (embedded mode only: PostgreSQL mode requires one), a page rebound to this
  // machine's name could read the counters: answer this machine's and PUBLIC_URL's names only.
  if (token === undefined) useHostGuard(app, publicUrl);
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    if (!authorized(request.headers.authorization)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'UNAUTHORIZED', message: 'GET /metrics needs Authorization: Bearer <BRAIN_METRICS_TOKEN>.' });
    }
    const body = await metrics.render(
      () => databaseSnapshot(db),
      (error) => request.log.warn({ err: error }, 'metrics: the database snapshot failed; serving the last values'),
    );
    return reply.header('content-type', metrics.contentType).send(body);
  });
};
