import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { withService, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { startFakeHttpServer, type FakeHttpServer } from '@brain/testkit';
import { startWorker, type WorkerHandle } from '@brain/worker';
import { buildIngestRuntime, type IngestRuntime } from '../src/services/ingest.ts';

const logger = createLogger({ level: 'silent' });

/** Accepts connections and reads requests, and never answers: a site that hangs. */
async function startSilentServer(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = http.createServer(() => {
    requests++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function jobOf(db: Database, artifactId: string) {
  const [row] = await withService(db, (tx) =>
    tx.query<{ status: string; attempts: number; code: string | null; a_status: string; a_code: string | null }>(
      `select j.status, j.attempts, j.last_error_code as code, a.status as a_status, a.error_code as a_code
       from jobs j join artifacts a on a.id = j.artifact_id where j.artifact_id = $1`,
      [artifactId],
    ),
  );
  return row;
}

/** Runs the worker until the job has had `attempts` attempts, skipping each retry's backoff. */
async function runAttempts(db: Database, runtime: IngestRuntime, artifactId: string, attempts: number): Promise<void> {
  let worker: WorkerHandle | undefined;
  try {
    const seen = new Promise<void>((resolve) => {
      let n = 0;
      void startWorker(runtime.services, {
        logger,
        artifactIds: [artifactId],
        pollMs: 20,
        onJobDone: (_job, outcome) => {
          n++;
          if (n >= attempts || outcome.ok || outcome.final) resolve();
          else void withService(db, (tx) => tx.query(`update jobs set run_at = now() where artifact_id = $1 and status = 'queued'`, [artifactId]));
        },
      }).then((w) => (worker = w));
    });
    await seen;
  } finally {
    await worker?.stop(1_000);
  }
}

describeDb('a fetch timeout is retried at most once per host per job', (suite) => {
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let flaky: FakeHttpServer;
  let runtime: IngestRuntime;
  let ws = '';

  beforeAll(async () => {
    silent = await startSilentServer();
    flaky = await startFakeHttpServer('flaky');
    flaky.on('GET', '/down', () => ({ status: 503, body: 'maintenance' }));
    const config = loadConfig({ BRAIN_FETCH_TIMEOUT_SECONDS: '0.3', BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, { cwd: process.cwd() });
    runtime = buildIngestRuntime(config, suite.db, logger);
    const [row] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('timeouts') returning id"));
    ws = row?.id as string;
  });
  afterAll(async () => {
    await runtime?.close();
    await Promise.all([silent?.close(), flaky?.close()]);
  });

  const saveUrl = async (url: string) =>
    (await saveSource(suite.db, { workspaceId: ws, input: { kind: 'url', url }, savedBy: 'test' })).artifacts[0]?.artifactId as string;

  it('fails the job with FETCH_TIMEOUT after the second timeout, though attempts remain', { timeout: 240_000 }, async () => {
    const id = await saveUrl(`${silent.url}/never`);
    await runAttempts(suite.db, runtime, id, 5);
    expect(await jobOf(suite.db, id)).toMatchObject({ status: 'failed', attempts: 2, code: 'FETCH_TIMEOUT', a_status: 'failed', a_code: 'FETCH_TIMEOUT' });
    expect(silent.requests()).toBe(2);
  });

  it('keeps retrying other retryable failures (a 503) as before', { timeout: 240_000 }, async () => {
    const id = await saveUrl(`${flaky.url}/down`);
    await runAttempts(suite.db, runtime, id, 3);
    expect(await jobOf(suite.db, id)).toMatchObject({ status: 'queued', attempts: 3, code: 'FETCH_HTTP_STATUS' });
  });
});
