import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWorkspace, withService } from '@brain/db';
import { saveSource } from '@brain/ingest';
import { startFakeOpenAI, type FakeOpenAI } from '@brain/testkit';
import { seededDataDir, spawnBrain, waitFor } from './brain-process.ts';

const TOKEN = 'metrics-token-0123456789';

/** The value of one series in Prometheus text, e.g. sample(text, 'brain_jobs_running'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('brain worker with BRAIN_METRICS_PORT', () => {
  let openai: FakeOpenAI;
  let dataDir: string;

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    // Two saved notes: two jobs waiting for the worker.
    dataDir = await seededDataDir(async (db) => {
      const ws = await withService(db, (tx) => ensureWorkspace(tx, 'metrics'));
      for (const text of ['# Deploys\n\nOn Tuesdays.', '# Keys\n\nRotated monthly.']) {
        await saveSource(db, { workspaceId: ws.id, input: { kind: 'text', text }, savedBy: 'test' });
      }
    });
  }, 60_000);

  afterAll(async () => {
    await openai?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves /metrics and /healthz while it runs jobs, counts the jobs it finishes by outcome and failure code, and closes the port on SIGTERM', { timeout: 240_000 }, async () => {
    // Embeddings wait for the test: the first scrape sees both jobs running and none finished.
    const release = openai.hold('embeddings');
    const worker = spawnBrain(['worker'], {
      BRAIN_DATA_DIR: dataDir,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.url,
      BRAIN_METRICS_PORT: '0',
      BRAIN_METRICS_TOKEN: TOKEN,
      // Both jobs are one workspace's: the fair-claiming cap (1 by default) would run them in turn.
      BRAIN_WORKER_JOBS_PER_WORKSPACE: '2',
    });
    try {
      const [, base] = await worker.waitForOutput(/Worker metrics: (http:\/\/localhost:\d+)\/metrics/);
      const scrape = async () => {
        const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/plain');
        return res.text();
      };
      await waitFor(() => openai.embeddingCalls.length >= 2, 30_000, 'both jobs to reach the embedder', worker.output);

      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const health = await fetch(`${base}/healthz`);
      expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });
      expect((await fetch(`${base}/elsewhere`)).status).toBe(404);

      const before = await scrape();
      for (const name of ['brain_jobs_queued', 'brain_jobs_running', 'brain_jobs_oldest_queued_seconds', 'brain_jobs_failed_last_hour', 'brain_jobs_finished_total', 'brain_job_failures_total', 'brain_job_duration_seconds']) {
        expect(before).toContain(`# TYPE ${name} `);
      }
      expect(sample(before, 'brain_jobs_running')).toBe(2);
      expect(before).not.toMatch(/^brain_jobs_finished_total\{/m);

      // One job gets a final refusal from the provider (no quota), the other its vectors.
      openai.failNext('embeddings', 1, { status: 429, code: 'insufficient_quota' });
      release();
      let after = '';
      await waitFor(
        async () => {
          after = await scrape();
          return sample(after, 'brain_jobs_running') === 0 && /^brain_jobs_finished_total\{[^}]*outcome="failed"[^}]*\} 1$/m.test(after);
        },
        30_000,
        'both jobs to finish',
        worker.output,
      );
      expect(after).toMatch(/^brain_jobs_finished_total\{[^}]*outcome="done"[^}]*\} 1$/m);
      expect(after).toMatch(/^brain_job_failures_total\{[^}]*code="EMBEDDING_QUOTA_EXCEEDED"[^}]*\} 1$/m);
      expect(sample(after, 'brain_jobs_failed_last_hour{code="EMBEDDING_QUOTA_EXCEEDED"}')).toBe(1);

      worker.child.kill('SIGTERM');
      expect((await worker.exited).code, worker.output()).toBe(0);
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      release();
      worker.kill();
    }
  });
});
