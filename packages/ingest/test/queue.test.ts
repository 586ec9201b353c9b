import { beforeAll, expect, it } from 'vitest';
import { AppError, type ErrorCode } from '@brain/errors';
import { openPostgres, withService } from '@brain/db';
import { describeDb, describePostgres } from '@brain/db/testing';
import { claimJobs, enqueueReembed, enqueueStaleRefreshes, failJob, queueStats, releaseJob, renewLease, requeueExpiredJobs, retryDelayMs, saveSource } from '../src/index.ts';
import { waitUntil } from '@brain/testkit';
import { createWorkspace } from './helpers.ts';

async function queueTexts(db: Parameters<typeof saveSource>[0], workspaceId: string, n: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { artifacts } = await saveSource(db, { workspaceId, input: { kind: 'text', text: `${prefix} note ${i}` }, savedBy: 'test' });
    ids.push(artifacts[0]?.artifactId as string);
  }
  return ids;
}

describeDb('job queue', (suite) => {
  let ws = '';
  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'queue');
  });

  it('leases a job to one worker, renews it, and gives it back on release without spending an attempt', async () => {
    const [artifactId] = await queueTexts(suite.db, ws, 1, 'lease');
    const [job] = await claimJobs(suite.db, { workerId: 'w1', limit: 1, leaseMs: 60_000, artifactIds: [artifactId as string] });
    expect(job).toMatchObject({ artifactId, task: 'ingest', attempts: 1 });
    expect(await claimJobs(suite.db, { workerId: 'w2', limit: 1, leaseMs: 60_000, artifactIds: [artifactId as string] })).toEqual([]);
    expect(await renewLease(suite.db, job?.id as string, 'w1', 60_000)).toBe(true);
    expect(await renewLease(suite.db, job?.id as string, 'w2', 60_000)).toBe(false);
    expect(await releaseJob(suite.db, job?.id as string, 'w1')).toBe(true);
    const [again] = await claimJobs(suite.db, { workerId: 'w2', limit: 1, leaseMs: 60_000, artifactIds: [artifactId as string] });
    expect(again).toMatchObject({ id: job?.id, attempts: 1 });
    await releaseJob(suite.db, again?.id as string, 'w2');
  });

  it('retries a retryable failure later, and fails the job and its artifact with the reason otherwise', async () => {
    const [retryable, permanent] = await queueTexts(suite.db, ws, 2, 'fail');
    const claimed = await claimJobs(suite.db, { workerId: 'w1', limit: 2, leaseMs: 60_000, perWorkspace: 2, artifactIds: [retryable as string, permanent as string] });
    const byArtifact = new Map(claimed.map((j) => [j.artifactId as string, j]));
    const flaky = new AppError({ code: 'FETCH_TIMEOUT', message: 'slow', retryable: true });
    const broken = new AppError({ code: 'EXTRACT_PDF_ENCRYPTED' as ErrorCode, message: 'encrypted', userMessage: 'That PDF is password-protected.', nextStep: 'Save an unlocked copy.' });
    expect(await failJob(suite.db, byArtifact.get(retryable as string) as never, 'w1', flaky)).toBe('retrying');
    expect(await failJob(suite.db, byArtifact.get(permanent as string) as never, 'w1', broken)).toBe('failed');
    const rows = await withService(suite.db, (tx) =>
      tx.query<{ artifact_id: string; status: string; delay: number; last_error_code: string; a_status: string; a_code: string | null; a_message: string | null }>(
        `select j.artifact_id, j.status, extract(epoch from j.run_at - now())::float8 as delay, j.last_error_code,
                a.status as a_status, a.error_code as a_code, a.error_message as a_message
         from jobs j join artifacts a on a.id = j.artifact_id where j.artifact_id = any($1::uuid[])`,
        [[retryable, permanent]],
      ),
    );
    const r = rows.find((x) => x.artifact_id === retryable);
    const p = rows.find((x) => x.artifact_id === permanent);
    expect(r).toMatchObject({ status: 'queued', last_error_code: 'FETCH_TIMEOUT', a_status: 'queued' });
    expect(r?.delay).toBeGreaterThan(1);
    expect(p).toMatchObject({ status: 'failed', a_status: 'failed', a_code: 'EXTRACT_PDF_ENCRYPTED' as ErrorCode, a_message: 'That PDF is password-protected. Save an unlocked copy.' });
  });

  it('gives up after the last attempt even when the error is retryable', async () => {
    const [artifactId] = await queueTexts(suite.db, ws, 1, 'exhaust');
    await withService(suite.db, (tx) => tx.query('update jobs set max_attempts = 2 where artifact_id = $1', [artifactId]));
    let outcome = '';
    for (let i = 0; i < 2; i++) {
      await withService(suite.db, (tx) => tx.query('update jobs set run_at = now() where artifact_id = $1', [artifactId]));
      const [job] = await claimJobs(suite.db, { workerId: 'w1', limit: 1, leaseMs: 60_000, artifactIds: [artifactId as string] });
      outcome = await failJob(suite.db, job as never, 'w1', new AppError({ code: 'EMBEDDING_PROVIDER_UNAVAILABLE', message: '503', retryable: true }));
    }
    expect(outcome).toBe('failed');
  });

  it('requeues the jobs of a worker that died, and ends a job that killed every worker it met', async () => {
    const [dead, poison] = await queueTexts(suite.db, ws, 2, 'sweep');
    await withService(suite.db, (tx) => tx.query('update jobs set max_attempts = 1 where artifact_id = $1', [poison]));
    await claimJobs(suite.db, { workerId: 'crashed', limit: 2, leaseMs: 1, perWorkspace: 2, artifactIds: [dead as string, poison as string] });
    await waitUntil(
      async () => {
        const [row] = await withService(suite.db, (tx) => tx.query<{ expired: boolean }>('select bool_and(lease_expires_at < now()) as expired from jobs where artifact_id = any($1::uuid[])', [[dead, poison]]));
        return row?.expired;
      },
      { what: 'both 1 ms leases to expire' },
    );
    const result = await requeueExpiredJobs(suite.db);
    expect(result.requeued).toBeGreaterThanOrEqual(1);
    expect(result.failed).toBeGreaterThanOrEqual(1);
    const states = await withService(suite.db, (tx) =>
      tx.query<{ artifact_id: string; status: string; code: string | null }>(
        'select j.artifact_id, j.status, a.error_code as code from jobs j join artifacts a on a.id = j.artifact_id where j.artifact_id = any($1::uuid[])',
        [[dead, poison]],
      ),
    );
    expect(states.find((s) => s.artifact_id === dead)).toMatchObject({ status: 'queued', code: null });
    expect(states.find((s) => s.artifact_id === poison)).toMatchObject({ status: 'failed', code: 'WORKER_LOST' });
  });

  it('queues refreshes of stale URL sources once, and re-embeds of other-model passages once', async () => {
    const { artifacts } = await saveSource(suite.db, { workspaceId: ws, input: { kind: 'url', url: 'https://example.com/stale' }, savedBy: 'test' });
    const id = artifacts[0]?.artifactId as string;
    await withService(suite.db, async (tx) => {
      await tx.query("update jobs set status = 'done', finished_at = now() where artifact_id = $1", [id]);
      await tx.query("update artifacts set status = 'ready', indexed_at = now() - interval '3 days' where id = $1", [id]);
    });
    expect(await enqueueStaleRefreshes(suite.db, 24 * 3600_000)).toBe(1);
    expect(await enqueueStaleRefreshes(suite.db, 24 * 3600_000)).toBe(0);

    await withService(suite.db, (tx) =>
      tx.query(
        `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash, embedding, embedding_model)
         values ($1, $2, 0, 'x', 'h', array_fill(0.1, array[1536])::vector, 'old-model')`,
        [ws, id],
      ),
    );
    expect(await enqueueReembed(suite.db, 'new-model')).toBe(1);
    expect(await enqueueReembed(suite.db, 'new-model')).toBe(0);
    expect(await enqueueReembed(suite.db, 'old-model')).toBe(0);
  });

  it('reports depth and the age of the oldest waiting job', async () => {
    const stats = await queueStats(suite.db);
    expect(stats.queued).toBeGreaterThan(0);
    expect(stats.oldestQueuedSeconds).toBeGreaterThanOrEqual(0);
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(retryDelayMs(1, () => 0)).toBe(2_500);
    expect(retryDelayMs(1, () => 1)).toBe(5_000);
    expect(retryDelayMs(3, () => 1)).toBe(20_000);
    expect(retryDelayMs(30, () => 1)).toBe(15 * 60_000);
  });
});

describePostgres('job queue under concurrent workers', (suite) => {
  it('hands each of 500 jobs to exactly one of 4 concurrent claimers', async () => {
    const ws = await createWorkspace(suite.db, 'race');
    await withService(suite.db, (tx) =>
      tx.query(
        `with a as (
           insert into artifacts (workspace_id, kind, source_key) select $1, 'text', 'race-' || g from generate_series(1, 500) g returning id
         ) insert into jobs (workspace_id, artifact_id, task) select $1, id, 'ingest' from a`,
        [ws],
      ),
    );
    const workers = Array.from({ length: 4 }, (_, i) => ({ id: `w${i}`, db: openPostgres({ url: suite.url as string, display: 'race', prepare: true, maxConnections: 2 }) }));
    try {
      const claimedBy = await Promise.all(
        workers.map(async (w) => {
          const mine: string[] = [];
          for (;;) {
            const jobs = await claimJobs(w.db, { workerId: w.id, limit: 7, leaseMs: 60_000, perWorkspace: 500 });
            if (jobs.length === 0) return mine;
            mine.push(...jobs.map((j) => j.id));
          }
        }),
      );
      const all = claimedBy.flat();
      expect(all).toHaveLength(500);
      expect(new Set(all).size).toBe(500);
      expect(claimedBy.filter((c) => c.length > 0).length).toBeGreaterThan(1);
    } finally {
      await Promise.all(workers.map((w) => w.db.close()));
    }
  });
});
