import { beforeEach, expect, it } from 'vitest';
import { openPostgres, withService, type Database } from '@brain/db';
import { describeDb, describePostgres } from '@brain/db/testing';
import { claimJobs, releaseJob, type Job } from '../src/index.ts';
import { createWorkspace } from './helpers.ts';

let counter = 0;

/** Queues `n` ingest jobs for a workspace in one statement, each a second younger than the last; the first `secondsAgo` old. */
async function queueJobs(db: Database, workspaceId: string, n: number, secondsAgo = 3600): Promise<void> {
  const prefix = `job-${counter++}`;
  await withService(db, (tx) =>
    tx.query(
      `with a as (
         insert into artifacts (workspace_id, kind, source_key)
         select $1, 'text', $2 || '-' || g from generate_series(1, $3::int) g returning id, source_key
       )
       insert into jobs (workspace_id, artifact_id, task, created_at, run_at)
       select $1, id, 'ingest', t, t
       from a, lateral (select now() - make_interval(secs => $4::int) + make_interval(secs => split_part(source_key, '-', 3)::int - 1) as t) s`,
      [workspaceId, prefix, n, secondsAgo],
    ),
  );
}

async function finish(db: Database, jobs: Job[]): Promise<void> {
  await withService(db, (tx) =>
    tx.query(`update jobs set status = 'done', finished_at = now(), locked_by = null, lease_expires_at = null where id = any($1::uuid[])`, [jobs.map((j) => j.id)]),
  );
}

async function clearQueue(db: Database): Promise<void> {
  await withService(db, async (tx) => {
    await tx.query('delete from jobs');
    await tx.query('delete from job_claim_turns');
  });
}

const claim = (db: Database, limit: number, perWorkspace: number, workerId = 'w1') => claimJobs(db, { workerId, limit, leaseMs: 60_000, perWorkspace });

describeDb('fair claiming across workspaces', (suite) => {
  let flood = '';
  let quiet = '';
  beforeEach(async () => {
    if (!flood) {
      flood = await createWorkspace(suite.db, 'flood');
      quiet = await createWorkspace(suite.db, 'quiet');
    }
    await clearQueue(suite.db);
  });

  it("gives a workspace's single job the second slot even behind 50 older jobs of another workspace", async () => {
    await queueJobs(suite.db, flood, 50);
    await queueJobs(suite.db, quiet, 1, 0);
    const claimed = await claim(suite.db, 2, 2);
    expect(claimed.map((j) => j.workspaceId)).toEqual([flood, quiet]);
  });

  it('never runs more than the cap of one workspace at once, across calls and workers', async () => {
    await queueJobs(suite.db, flood, 50);
    const first = await claim(suite.db, 4, 2, 'w1');
    const second = await claim(suite.db, 4, 2, 'w2');
    expect(first).toHaveLength(2);
    expect(second).toEqual([]);
    await finish(suite.db, first.slice(0, 1));
    expect(await claim(suite.db, 4, 2, 'w2')).toHaveLength(1);
  });

  it('hands the next free slot to the workspace that waited, not to the one just served', async () => {
    // One slot in all: the flood's job runs, the quiet workspace's job arrives behind 50 older ones.
    await queueJobs(suite.db, flood, 50);
    const [running] = await claim(suite.db, 1, 10);
    expect(running?.workspaceId).toBe(flood);
    await queueJobs(suite.db, quiet, 1, 0);
    await finish(suite.db, [running as Job]);
    const [next] = await claim(suite.db, 1, 10);
    expect(next?.workspaceId).toBe(quiet);
    // And back to the flood after that: round-robin, not starvation either way.
    await finish(suite.db, [next as Job]);
    const [after] = await claim(suite.db, 1, 10);
    expect(after?.workspaceId).toBe(flood);
  });

  it('still takes every job of a lone workspace, up to its cap at a time, oldest first', async () => {
    await queueJobs(suite.db, flood, 5);
    const seen: string[] = [];
    for (;;) {
      const jobs = await claim(suite.db, 3, 2);
      if (jobs.length === 0) break;
      expect(jobs.length).toBeLessThanOrEqual(2);
      seen.push(...jobs.map((j) => j.id));
      await finish(suite.db, jobs);
    }
    expect(seen).toHaveLength(5);
    const order = await withService(suite.db, (tx) => tx.query<{ id: string }>('select id from jobs order by created_at'));
    expect(seen).toEqual(order.map((r) => r.id));
  });

  it('gives a released job back to the same workspace turn order without losing the cap', async () => {
    await queueJobs(suite.db, flood, 3);
    const [job] = await claim(suite.db, 1, 1);
    expect(await claim(suite.db, 1, 1, 'w2')).toEqual([]);
    expect(await releaseJob(suite.db, (job as Job).id, 'w1')).toBe(true);
    expect(await claim(suite.db, 1, 1, 'w2')).toHaveLength(1);
  });
});

describePostgres('fair claiming under concurrent workers', (suite) => {
  it('keeps every workspace at or under its cap while 6 workers claim at once, and serves all of them', async () => {
    await clearQueue(suite.db);
    const workspaces = await Promise.all(Array.from({ length: 5 }, (_, i) => createWorkspace(suite.db, `race-ws-${i}`)));
    for (const ws of workspaces) await queueJobs(suite.db, ws, 40);
    const workers = Array.from({ length: 6 }, (_, i) => ({ id: `w${i}`, db: openPostgres({ url: suite.url as string, display: 'fair', prepare: true, maxConnections: 1 }) }));
    const cap = 2;
    let worstRunning = 0;
    try {
      const claimedBy = await Promise.all(
        workers.map(async (w) => {
          const mine: string[] = [];
          for (let idle = 0; idle < 2_000; ) {
            const jobs = await claimJobs(w.db, { workerId: w.id, limit: 3, leaseMs: 60_000, perWorkspace: cap });
            const [row] = await withService(w.db, (tx) =>
              tx.query<{ worst: number }>(`select coalesce(max(n), 0)::int as worst from (select count(*) as n from jobs where status = 'running' group by workspace_id) c`),
            );
            worstRunning = Math.max(worstRunning, row?.worst ?? 0);
            if (jobs.length === 0) {
              idle++;
              const [left] = await withService(w.db, (tx) => tx.query<{ n: number }>(`select count(*)::int as n from jobs where status in ('queued', 'running')`));
              if ((left?.n ?? 0) === 0) break;
              // This worker's poll interval, as in the real loop: part of the race under test, not a wait for it.
              await new Promise((r) => setTimeout(r, 5));
              continue;
            }
            mine.push(...jobs.map((j) => j.id));
            await finish(w.db, jobs);
          }
          return mine;
        }),
      );
      const all = claimedBy.flat();
      expect(all).toHaveLength(200);
      expect(new Set(all).size).toBe(200);
      expect(worstRunning).toBeLessThanOrEqual(cap);
      expect(worstRunning).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all(workers.map((w) => w.db.close()));
    }
  });
});
