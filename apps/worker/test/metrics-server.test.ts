import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { createLogger, createMetrics } from '@brain/observability';
import { startMetricsServer } from '../src/index.ts';

// The scrape itself (series, token, counters of jobs run) is tested through `brain worker` in
// apps/cli/test/worker-metrics.test.ts; these are the edges that test cannot reach cheaply.
describe('the worker metrics server', () => {
  it('says 503 on /healthz once the database is gone, refuses other methods, and names a port already in use', async () => {
    const database = await createTestDatabase('pglite');
    const { db } = database;
    const options = {
      metrics: createMetrics(),
      snapshot: () => Promise.reject(new Error('no snapshot in this test')),
      healthy: () => db.query('select 1').then(() => true, () => false),
      token: undefined,
      logger: createLogger({ level: 'silent' }),
    };
    const server = await startMetricsServer({ ...options, port: 0, host: '127.0.0.1' });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const post = await fetch(`${server.url}/metrics`, { method: 'POST' });
      expect({ status: post.status, allow: post.headers.get('allow') }).toEqual({ status: 405, allow: 'GET, HEAD' });

      const port = Number(new URL(server.url).port);
      const taken = await startMetricsServer({ ...options, port, host: '127.0.0.1' }).catch((error: unknown) => error);
      expect(isAppError(taken, 'METRICS_PORT_IN_USE')).toBe(true);
      expect((taken as Error).message).toContain(String(port));

      await database.drop();
      const down = await fetch(`${server.url}/healthz`);
      expect({ status: down.status, body: await down.json() }).toEqual({ status: 503, body: { status: 'unavailable', reason: 'database unreachable' } });
    } finally {
      await server.close();
      await database.drop();
    }
  });
});
