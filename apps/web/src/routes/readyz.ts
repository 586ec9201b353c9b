import type { FastifyPluginAsync } from 'fastify';
import type { WebDeps } from '../deps.ts';
import type { Readiness } from '../readiness.ts';

/**
 * 200 when this instance should take traffic: warmed up, not draining, database answering. 503
 * otherwise, with the reason. /healthz stays the liveness check (is the process alive at all).
 */
export const readyzRoute: FastifyPluginAsync<{ deps: WebDeps; readiness: Readiness }> = async (app, { deps, readiness }) => {
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const state = readiness.state;
    if (state !== 'ready') return reply.status(503).send({ status: state, reason: state === 'starting' ? 'warming up' : 'shutting down' });
    try {
      await deps.db.query('select 1');
      return { status: 'ready', mode: deps.config.mode };
    } catch {
      return reply.status(503).send({ status: 'unavailable', reason: 'database unreachable' });
    }
  });
};
