import { afterEach, expect, it } from 'vitest';
import { withService, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { AppError } from '@brain/errors';
import { completeJob, holdJob, saveSource, type IngestServices, type Job } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { waitUntil } from '@brain/testkit';
import { startWorker, type Task, type WorkerHandle } from '../src/index.ts';

const logger = createLogger({ level: 'silent' });

async function workspace(db: Database, slug: string): Promise<string> {
  const [row] = await withService(db, (tx) => tx.query<{ id: string }>('insert into workspaces (slug) values ($1) returning id', [slug]));
  return row?.id as string;
}

async function statuses(db: Database, workspaceId: string) {
  const rows = await withService(db, (tx) => tx.query<{ status: string; n: number }>('select status, count(*)::int as n from jobs where workspace_id = $1 group by 1', [workspaceId]));
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

describeDb('worker fairness across workspaces', (suite) => {
  let worker: WorkerHandle | undefined;
  const release: (() => void)[] = [];
  afterEach(async () => {
    release.splice(0).forEach((r) => r());
    await worker?.stop(1_000);
  });

  it("runs another workspace's single job at once while one workspace's 50 jobs hang", { timeout: 30_000 }, async () => {
    const flood = await workspace(suite.db, 'flood');
    const quiet = await workspace(suite.db, 'quiet');
    for (let i = 0; i < 50; i++) await saveSource(suite.db, { workspaceId: flood, input: { kind: 'text', text: `flood ${i}` }, savedBy: 'test' });

    let quietDone: (job: Job) => void = () => {};
    const quietFinished = new Promise<Job>((resolve) => (quietDone = resolve));
    // The flood's jobs hang (like a site that never answers) until the test lets them go.
    const task: Task = async (services, job, workerId) => {
      if (job.workspaceId === flood) await new Promise<void>((resolve) => release.push(resolve));
      await services.db.transaction(async (tx) => {
        await tx.exec('set local role service_role');
        if (!(await holdJob(tx, job.id, workerId))) throw new AppError({ code: 'LEASE_LOST', message: 'lost' });
        await completeJob(tx, job.id, workerId);
      });
      if (job.workspaceId === quiet) quietDone(job);
    };
    worker = await startWorker({ db: suite.db, logger } as unknown as IngestServices, { logger, tasks: { ingest: task }, concurrency: 2, jobsPerWorkspace: 1, pollMs: 50 });
    // The flood has taken what it may: one slot, the other kept free.
    await waitUntil(async () => (await statuses(suite.db, flood)).running === 1, { what: 'one flood job to be running' });
    expect(await statuses(suite.db, flood)).toEqual({ running: 1, queued: 49 });

    await saveSource(suite.db, { workspaceId: quiet, input: { kind: 'text', text: 'the one quiet note' }, savedBy: 'test' });
    const job = await quietFinished;
    expect(job.workspaceId).toBe(quiet);
    // Done while every flood job it queued behind is still waiting or hanging.
    expect(await statuses(suite.db, quiet)).toEqual({ done: 1 });
    expect(await statuses(suite.db, flood)).toEqual({ running: 1, queued: 49 });
  });
});
