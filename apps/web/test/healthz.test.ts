import { expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { openPglite } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLogger } from '@brain/observability';
import { buildApp } from '../src/index.ts';

const config = loadConfig({}, { cwd: process.cwd() });
const logger = createLogger({ level: 'silent' });

describeDb('GET /healthz', (suite) => {
  it('answers 200 when the database answers', async () => {
    const app = await buildApp({ config, db: suite.db, logger });
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', mode: 'embedded' });
    await app.close();
  });
});

it('answers 503 when the database is gone, and 404 with a message for unknown routes', async () => {
  const db = await openPglite();
  const app = await buildApp({ config, db, logger });
  await db.close();
  const res = await app.inject({ method: 'GET', url: '/healthz' });
  expect(res.statusCode).toBe(503);
  expect(res.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' });
  const missing = await app.inject({ method: 'GET', url: '/nope' });
  expect(missing.statusCode).toBe(404);
  expect(missing.json().message).toBe('No route for GET /nope.');
  await app.close();
});
