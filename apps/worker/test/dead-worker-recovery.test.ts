import { beforeAll, expect, it } from 'vitest';
import { withService, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { AppError } from '@brain/errors';
import { claimJobs, completeJob, holdJob, saveSource, type IngestServices } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { waitUntil } from '@brain/testkit';
import { startWorker, type Task } from '../src/index.ts';

// The soak's kill -9: a worker dies holding a job. Its lease runs out, but only the sweeper put such
// jobs back, and it runs every 15 minutes of the wall clock, so the save sat "indexing" for up to
// 15 minutes while the other worker idled. A live worker now takes them back after one lease.
const logger = createLogger({ level: 'silent' });
const services = (db: Database) => ({ db, logger }) as unknown as IngestServices;

const recordTask: Task = async (s, job, workerId) => {
  await s.db.transaction(async (tx) => {
    await tx.exec('set local role service_role');
    if (!(await holdJob(tx, job.id, workerId))) throw new AppError({ code: 'LEASE_LOST', message: 'lost' });
    await completeJob(tx, job.id, workerId);
  });
};

describeDb('a job held by a dead worker', (suite) => {
  let ws = '';
  beforeAll(async () => {
    const [row] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('dead-worker') returning id"));
    ws = row?.id as string;
  });

  it('is taken back by a live worker once its lease expires, without waiting for the sweeper', { timeout: 60_000 }, async () => {
    const { artifacts } = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text: 'held by the dead', title: 't' }, savedBy: 'test' });
    const artifactId = artifacts[0]?.artifactId as string;
    // Claimed by a worker that is then killed: it never renews the lease, never finishes.
    const [held] = await claimJobs(suite.db, { workerId: 'killed-worker', limit: 1, leaseMs: 300, artifactIds: [artifactId] });
    expect(held?.artifactId).toBe(artifactId);

    const worker = await startWorker(services(suite.db), { logger, leaseMs: 600, pollMs: 100, tasks: { ingest: recordTask } });
    try {
      let state: { status: string; attempts: number; locked_by: string | null } | undefined;
      // Generous for a loaded machine; on a quiet one it is done in about two leases.
      await waitUntil(
        async () => {
          [state] = await withService(suite.db, (tx) => tx.query<{ status: string; attempts: number; locked_by: string | null }>('select status, attempts, locked_by from jobs where artifact_id = $1', [artifactId]));
          return state?.status === 'done';
        },
        { timeoutMs: 30_000, intervalMs: 100, what: "the dead worker's job to be taken back and done", details: () => `last state: ${JSON.stringify(state)}` },
      );
      expect(state).toMatchObject({ status: 'done', attempts: 2 });
    } finally {
      await worker.stop();
    }
  });
});
