import { beforeAll, expect, it } from 'vitest';
import { withService, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { AppError } from '@brain/errors';
import { completeJob, holdJob, saveSource, type IngestServices } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { waitUntil } from '@brain/testkit';
import { startWorker, type Task } from '../src/index.ts';

const logger = createLogger({ level: 'silent' });

/** The worker only needs the database from the services for these tests: the tasks are the tests' own. */
function servicesFor(db: Database): IngestServices {
  return { db, logger } as unknown as IngestServices;
}

/** A task with a visible effect, completed in the same transaction, like the real ones. */
const recordTask: Task = async (services, job, workerId) => {
  await services.db.transaction(async (tx) => {
    await tx.exec('set local role service_role');
    if (!(await holdJob(tx, job.id, workerId))) throw new AppError({ code: 'LEASE_LOST', message: 'lost' });
    await tx.query("update artifacts set title = coalesce(title, '') || '+' where id = $1", [job.artifactId]);
    await completeJob(tx, job.id, workerId);
  });
};

async function jobState(db: Database, artifactId: string) {
  const [row] = await withService(db, (tx) =>
    tx.query<{ status: string; attempts: number; title: string; code: string | null }>(
      'select j.status, j.attempts, a.title, j.last_error_code as code from jobs j join artifacts a on a.id = j.artifact_id where j.artifact_id = $1',
      [artifactId],
    ),
  );
  return row;
}

describeDb('worker loop', (suite) => {
  let ws = '';
  beforeAll(async () => {
    const [row] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('worker') returning id"));
    ws = row?.id as string;
  });

  const save = async (text: string) =>
    (await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text, title: 't' }, savedBy: 'test' })).artifacts[0]?.artifactId as string;

  it('picks a job up as soon as it is queued, without waiting for the poll', async () => {
    const worker = await startWorker(servicesFor(suite.db), { logger, pollMs: 60_000, tasks: { ingest: recordTask } });
    try {
      await worker.idle(); // its first look found nothing: it is now in its 60 s wait
      const started = Date.now();
      const id = await save('notify me');
      await waitUntil(async () => (await jobState(suite.db, id))?.status === 'done', { what: 'the job to be done' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await worker.stop();
    }
  });

  it('stops at once even when asked while it is still claiming, instead of sleeping out its poll', async () => {
    // stop() right after start lands while the first claim is in flight; a lost wake-up would sleep 60 s.
    const worker = await startWorker(servicesFor(suite.db), { logger, pollMs: 60_000, tasks: { ingest: recordTask } });
    const stopped = worker.stop().then(() => 'stopped');
    const slept = new Promise((r) => setTimeout(() => r('slept'), 15_000).unref());
    expect(await Promise.race([stopped, slept])).toBe('stopped');
  });

  it('fails a job with its reason when the task throws, and a job whose task does not exist', async () => {
    const broken: Task = async () => {
      throw new AppError({ code: 'EXTRACT_EMPTY', message: 'no text' });
    };
    const a = await save('will break');
    const worker = await startWorker(servicesFor(suite.db), { logger, tasks: { ingest: broken }, artifactIds: [a] });
    await worker.idle();
    await worker.stop();
    expect(await jobState(suite.db, a)).toMatchObject({ status: 'failed', code: 'EXTRACT_EMPTY' });

    const b = await save('unknown task');
    await withService(suite.db, (tx) => tx.query("update jobs set task = 'teleport' where artifact_id = $1", [b]));
    const worker2 = await startWorker(servicesFor(suite.db), { logger, tasks: { ingest: recordTask }, artifactIds: [b] });
    await worker2.idle();
    await worker2.stop();
    expect(await jobState(suite.db, b)).toMatchObject({ status: 'failed', code: 'UNKNOWN_TASK' });
  });

  it('on stop, lets running jobs finish within the grace period and gives the rest back to the queue', async () => {
    const quick = await save('quick');
    const slow = await save('slow');
    const gate: Task = async (services, job, workerId, signal) => {
      if (job.artifactId === slow) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        return;
      }
      await recordTask(services, job, workerId, signal);
    };
    const worker = await startWorker(servicesFor(suite.db), { logger, tasks: { ingest: gate }, artifactIds: [quick, slow], concurrency: 2, jobsPerWorkspace: 2 });
    await waitUntil(async () => (await jobState(suite.db, quick))?.status === 'done', { what: 'the quick job to be done' });
    await worker.stop(200);
    expect(await jobState(suite.db, quick)).toMatchObject({ status: 'done' });
    // Released, not failed, and the attempt it never finished does not count.
    expect(await jobState(suite.db, slow)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('runs several jobs at once up to its concurrency, each once', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => save(`batch ${i}`)));
    const worker = await startWorker(servicesFor(suite.db), { logger, tasks: { ingest: recordTask }, artifactIds: ids, concurrency: 3, jobsPerWorkspace: 3 });
    await worker.idle();
    await worker.stop();
    for (const id of ids) expect(await jobState(suite.db, id)).toMatchObject({ status: 'done', title: 't+' });
  });

  it('reports idle only after a look that began once every job had finished (a claim that overlapped the last job could not see the next)', async () => {
    // On PostgreSQL the next claim runs on another connection while the running job commits: its
    // snapshot still counts that job against the workspace's cap, so it finds nothing although a
    // job is queued. The gate below holds one such claim's (real) result until the job is done,
    // the order a pooled PostgreSQL produces by chance.
    const first = await save('first of three');
    const others = [await save('second of three'), await save('third of three')];
    let claimRan!: () => void;
    const claimHasRun = new Promise<void>((resolve) => (claimRan = resolve));
    let jobFinished!: () => void;
    const jobHasFinished = new Promise<void>((resolve) => (jobFinished = resolve));
    let claims = 0;
    // Held after the claim's transaction commits, so nothing else waits on it (PGlite runs one at a time).
    const transaction: Database['transaction'] = async (fn) => {
      let claiming = false;
      const result = await suite.db.transaction((tx) =>
        fn({ exec: (script) => tx.exec(script), query: (text, params) => ((claiming ||= text.includes('brain.claim_jobs')), tx.query(text, params)) }),
      );
      if (claiming && ++claims === 2) {
        claimRan();
        await jobHasFinished;
      }
      return result;
    };
    const real = suite.db;
    const db: Database = { kind: real.kind, display: real.display, query: (text, params) => real.query(text, params), exec: (script) => real.exec(script), transaction, listen: (channel, onPayload) => real.listen(channel, onPayload), close: () => real.close() };
    const firstTask: Task = async (services, job, workerId, signal) => {
      if (job.artifactId === first) await claimHasRun;
      await recordTask(services, job, workerId, signal);
    };
    const worker = await startWorker(servicesFor(db), { logger, tasks: { ingest: firstTask }, artifactIds: [first, ...others], concurrency: 2, jobsPerWorkspace: 1 });
    const finishedFirst = waitUntil(async () => (await jobState(suite.db, first))?.status === 'done', { what: 'the first job to be done' });
    // The job's own bookkeeping (leaving the worker's running set) follows its commit by a few ticks.
    void finishedFirst.then(() => setTimeout(jobFinished, 50));
    await worker.idle();
    await worker.stop();
    expect(await jobState(suite.db, first)).toMatchObject({ status: 'done' });
    // (stop() drains the job a last look may still take, so one job alone could not show the early idle.)
    for (const id of others) expect(await jobState(suite.db, id)).toMatchObject({ status: 'done' });
  });
});
