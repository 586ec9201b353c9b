import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { openPostgres, withService, type Database } from '@brain/db';
import { createWorkspace, describePostgres } from '@brain/db/testing';
import { requeueExpiredJobs, saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { startFakeOpenAI, waitUntil, type FakeOpenAI } from '@brain/testkit';
import { startWorker } from '@brain/worker';
import { buildIngestRuntime } from '../src/services/ingest.ts';
import { brainArgv } from './brain-bin.ts';

const logger = createLogger({ level: 'silent' });

async function duplicatePassages(db: Database): Promise<number> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ n: number }>('select count(*)::int as n from (select artifact_id, ordinal from chunks group by 1, 2 having count(*) > 1) d'),
  );
  return row?.n ?? -1;
}

describePostgres('ingestion workers on PostgreSQL', (suite) => {
  let openai: FakeOpenAI;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
  });
  afterAll(() => openai.close());

  const configFor = (extra: Record<string, string> = {}) =>
    loadConfig({ DATABASE_URL: suite.url, OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-test', EMBEDDING_MODEL: 'text-embedding-3-small', ...extra }, { cwd: process.cwd() });

  it('4 workers on 500 jobs: each job has one effect, and no passage is duplicated', { timeout: 600_000 }, async () => {
    const ws = await createWorkspace(suite.db, 'four-workers');
    for (let i = 0; i < 500; i++) {
      await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text: `# Note ${i}\n\nFact number ${i} is about topic ${i % 17}.` }, savedBy: 'test' });
    }
    const effects = new Map<string, number>();
    const workers = await Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        const db = openPostgres({ url: suite.url as string, display: `worker-${i}`, prepare: true, maxConnections: 4 });
        const runtime = buildIngestRuntime(configFor(), db, logger);
        const worker = await startWorker(runtime.services, {
          logger,
          concurrency: 3,
          // One workspace: every slot of every worker may take its jobs, so they race for each one.
          jobsPerWorkspace: 12,
          workerId: `w${i}`,
          onJobDone: (job, outcome) => {
            if (outcome.ok) effects.set(job.id, (effects.get(job.id) ?? 0) + 1);
          },
        });
        return { db, runtime, worker };
      }),
    );
    await waitUntil(() => effects.size >= 500, { timeoutMs: 120_000, intervalMs: 200, what: 'every job to have its effect', details: () => `${effects.size} of 500` });
    await Promise.all(workers.map(async (w) => {
      await w.worker.stop();
      await w.runtime.close();
      await w.db.close();
    }));

    expect(effects.size).toBe(500);
    expect([...effects.values()].every((n) => n === 1)).toBe(true);
    const [jobs] = await withService(suite.db, (tx) =>
      tx.query<{ done: number; retried: number; workers: number }>(
        `select count(*) filter (where status = 'done')::int as done, count(*) filter (where attempts > 1)::int as retried,
                count(distinct locked_by)::int as workers
         from jobs where workspace_id = $1`,
        [ws],
      ),
    );
    expect(jobs).toMatchObject({ done: 500, retried: 0 });
    const [artifacts] = await withService(suite.db, (tx) =>
      tx.query<{ ready: number; passages: number }>(
        "select count(*) filter (where status = 'ready')::int as ready, sum(chunk_count)::int as passages from artifacts where workspace_id = $1",
        [ws],
      ),
    );
    expect(artifacts?.ready).toBe(500);
    expect(artifacts?.passages).toBeGreaterThanOrEqual(500);
    expect(await duplicatePassages(suite.db)).toBe(0);
  });

  it('re-runs the job of a worker killed with SIGKILL mid-job, after its lease, without duplicates', { timeout: 300_000 }, async () => {
    const ws = await createWorkspace(suite.db, 'killed-worker');
    const text = Array.from({ length: 30 }, (_, i) => `## Part ${i}\n\n${'A sentence about the kill test. '.repeat(30)}`).join('\n\n');
    const { artifacts } = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text: `# Long\n\n${text}` }, savedBy: 'test' });
    const artifactId = artifacts[0]?.artifactId as string;

    // The embedding API answers slowly, so the worker is surely mid-job when it is killed.
    openai.setLatency(60_000);
    const embeddingRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/embeddings')).length;
    const before = embeddingRequests();
    const child = spawn(process.execPath, brainArgv(['worker']), {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: suite.url as string, OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-test', EMBEDDING_MODEL: 'text-embedding-3-small', BRAIN_JOB_LEASE_SECONDS: '3', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const state = async () =>
      (await withService(suite.db, (tx) => tx.query<{ status: string; attempts: number; locked_by: string | null }>('select status, attempts, locked_by from jobs where artifact_id = $1', [artifactId])))[0];
    await waitUntil(() => embeddingRequests() > before, { timeoutMs: 60_000, intervalMs: 100, what: 'the worker to start embedding' });
    expect(embeddingRequests()).toBeGreaterThan(before);
    expect((await state())?.status).toBe('running');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    openai.setLatency(0);

    // Nothing was committed by the dead worker; once its lease runs out the sweeper gives the job back.
    expect(await duplicatePassages(suite.db)).toBe(0);
    // The lease is 3 s: the sweep requeues the job once it has run out, and not before.
    expect(await waitUntil(async () => (await requeueExpiredJobs(suite.db)).requeued, { timeoutMs: 30_000, intervalMs: 250, what: 'the dead worker’s lease to run out' })).toBeGreaterThanOrEqual(1);

    const db = openPostgres({ url: suite.url as string, display: 'rescuer', prepare: true, maxConnections: 4 });
    const runtime = buildIngestRuntime(configFor(), db, logger);
    const worker = await startWorker(runtime.services, { logger, artifactIds: [artifactId] });
    await worker.idle();
    await worker.stop();
    await runtime.close();
    await db.close();

    expect(await state()).toMatchObject({ status: 'done', attempts: 2 });
    const [row] = await withService(suite.db, (tx) =>
      tx.query<{ status: string; chunk_count: number; passages: number }>(
        'select a.status, a.chunk_count, (select count(*)::int from chunks c where c.artifact_id = a.id) as passages from artifacts a where a.id = $1',
        [artifactId],
      ),
    );
    expect(row?.status).toBe('ready');
    expect(row?.passages).toBe(row?.chunk_count);
    expect(await duplicatePassages(suite.db)).toBe(0);
  });
});
