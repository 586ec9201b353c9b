import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describePostgres } from '@brain/db/testing';
import { saveSource } from '@brain/ingest';
import { startFakeOpenAI, waitUntil, type FakeOpenAI } from '@brain/testkit';
import { brainArgv } from './brain-bin.ts';

describePostgres('brain worker on SIGTERM', (suite) => {
  let openai: FakeOpenAI;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
  });
  afterAll(() => openai.close());

  it('gives a job it cannot finish within the grace period back to the queue, uncounted, and exits 0', { timeout: 180_000 }, async () => {
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('sigterm') returning id"));
    const { artifacts } = await saveSource(suite.db, { workspaceId: ws?.id as string, input: { kind: 'text', text: '# Draining\n\nA passage the worker will not finish.' }, savedBy: 'test' });
    const artifactId = artifacts[0]?.artifactId as string;
    const state = async () =>
      (
        await withService(suite.db, (tx) =>
          tx.query<{ status: string; attempts: number; locked_by: string | null; id: string }>('select id, status, attempts, locked_by from jobs where artifact_id = $1', [artifactId]),
        )
      )[0];

    // The embedding API hangs, so the job is mid-flight when SIGTERM arrives and cannot finish in the grace period.
    openai.setLatency(120_000);
    const child = spawn(process.execPath, brainArgv(['worker']), {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_URL: suite.url as string,
        OPENAI_BASE_URL: openai.url,
        OPENAI_API_KEY: 'sk-test',
        EMBEDDING_MODEL: 'text-embedding-3-small',
        BRAIN_SHUTDOWN_GRACE_SECONDS: '1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let logs = '';
    child.stdout.on('data', (d: Buffer) => (logs += d.toString()));
    child.stderr.on('data', (d: Buffer) => (logs += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await waitUntil(async () => (await state())?.status === 'running', { timeoutMs: 60_000, intervalMs: 100, what: 'the worker to claim the job', details: () => logs });
      const running = await state();
      expect(running).toMatchObject({ status: 'running', attempts: 1 });

      const signalledAt = performance.now();
      child.kill('SIGTERM');
      const code = await exited;
      const seconds = (performance.now() - signalledAt) / 1000;
      expect(code).toBe(0);
      // Well inside Render's shutdown delay (45 s in render.yaml): the grace (1 s) plus closing.
      expect(seconds).toBeLessThan(30);
      expect(await state()).toMatchObject({ status: 'queued', attempts: 0, locked_by: null });

      // Structured logs: the release names the job, the lines are JSON, and nothing secret is in them.
      const lines = logs.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.some((l) => l.msg === 'released unfinished job back to the queue' && l.jobId === running?.id)).toBe(true);
      expect(lines.some((l) => l.msg === 'shutdown complete')).toBe(true);
      expect(logs).not.toContain('sk-test');
    } finally {
      openai.setLatency(0);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
