import type { FastifyPluginAsync } from 'fastify';
import type { WebDeps } from '../deps.ts';

/** 200 once the service can reach its database; 503 otherwise, so the platform keeps traffic away. */
export const healthzRoute: FastifyPluginAsync<{ deps: WebDeps }> = async (app, { deps }) => {
  app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) => {
    try {
      await deps.db.query('select 1');
      return { status: 'ok', mode: deps.config.mode };
    } catch {
      return reply.status(503).send({ status: 'unavailable', reason: 'database unreachable' });
    }
  });
};
