import { spawnSync } from 'node:child_process';
import os from 'node:os';
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

  const stateOf = async (artifactId: string) =>
    (await withService(suite.db, (tx) => tx.query<{ status: string; attempts: number; locked_by: string | null }>('select status, attempts, locked_by from jobs where artifact_id = $1', [artifactId])))[0];
  const savedJob = async (text: string) =>
    (await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text, title: text }, savedBy: 'test' })).artifacts[0]?.artifactId as string;

  it('is taken back at once, lease or not, when the dead worker was on this machine; a holder elsewhere keeps its lease', { timeout: 60_000 }, async () => {
    // A pid that no longer runs: a child that has exited. Same host name, so this is a kill -9 here.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const host = os.hostname();
    const killedHere = await savedJob('held by a worker killed on this machine');
    const predecessor = await savedJob('held by a dead worker that had this very pid');
    const elsewhere = await savedJob('held by a worker on another machine');
    const tenMinutes = 10 * 60_000;
    await claimJobs(suite.db, { workerId: `${host}:${deadPid}:a1b2c3`, limit: 1, leaseMs: tenMinutes, perWorkspace: 10, artifactIds: [killedHere] });
    // A restarted container's new worker often gets its predecessor's pid.
    await claimJobs(suite.db, { workerId: `${host}:${process.pid}:d4e5f6`, limit: 1, leaseMs: tenMinutes, perWorkspace: 10, artifactIds: [predecessor] });
    await claimJobs(suite.db, { workerId: 'elsewhere.example:1:a1b2c3', limit: 1, leaseMs: tenMinutes, perWorkspace: 10, artifactIds: [elsewhere] });

    // A second live worker of this process, holding a job of its own the whole time: not dead.
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const liveHolding = await savedJob('held by a live worker of this process');
    // One workspace's share of running jobs is raised: the fairness cap is not what this tests.
    const live = await startWorker(services(suite.db), { logger, leaseMs: tenMinutes, pollMs: 100, jobsPerWorkspace: 10, artifactIds: [liveHolding], tasks: { ingest: async (s, job, id, signal) => { await blocked; signal.throwIfAborted(); await recordTask(s, job, id, signal); } } });
    await waitUntil(async () => (await stateOf(liveHolding))?.status === 'running', { what: 'the live worker to hold its job' });

    const worker = await startWorker(services(suite.db), { logger, leaseMs: tenMinutes, pollMs: 100, jobsPerWorkspace: 10, tasks: { ingest: recordTask } });
    try {
      for (const artifactId of [killedHere, predecessor]) {
        let last: unknown;
        await waitUntil(async () => ((last = await stateOf(artifactId)) as { status?: string } | undefined)?.status === 'done', {
          timeoutMs: 20_000,
          intervalMs: 100,
          what: "the dead local worker's job to be taken back and done, long before its 10-minute lease",
          details: () => JSON.stringify(last),
        });
        expect(await stateOf(artifactId)).toMatchObject({ status: 'done', attempts: 2 });
      }
      expect(await stateOf(elsewhere)).toMatchObject({ status: 'running', locked_by: 'elsewhere.example:1:a1b2c3' });
      expect(await stateOf(liveHolding)).toMatchObject({ status: 'running', locked_by: live.workerId });
    } finally {
      release();
      await worker.stop();
      await live.stop();
    }
    expect(await stateOf(liveHolding)).toMatchObject({ status: 'done', attempts: 1 });
  });
});
