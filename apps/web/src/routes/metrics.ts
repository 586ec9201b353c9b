import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '@brain/db';
import { databaseSnapshot } from '@brain/ingest';
import { bearerTokenCheck, type BrainMetrics } from '@brain/observability';
import { useHostGuard } from '../security/host-guard.ts';

export interface MetricsRouteOptions {
  metrics: BrainMetrics;
  db: Database;
  /** BRAIN_METRICS_TOKEN: when set, scrapes must send `Authorization: Bearer <token>`. */
  token: string | undefined;
  publicUrl: string;
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
