/**
 * The everyone_flags rewrite (issue 14, migration 20261202160000): storing guild facts rewrites no
 * passage and queues one rewrite per workspace; the rewrite goes in batches, marks the flags
 * current only once every passage agrees with the facts, goes again when facts or passages change
 * under it, and leaves the flags lagging (never falsely current) when it stops midway.
 */
import { beforeAll, expect, it } from 'vitest';
import { openPostgres, withService, withWorkspace, type Database, type Queryable } from '@brain/db';
import { describeDb, describePostgres } from '@brain/db/testing';
import { waitUntil } from '@brain/testkit';
import { claimJobs, completeJob, enqueueLaggingEveryoneFlags, rewriteEveryoneFlags } from '../src/index.ts';
import { createWorkspace } from './helpers.ts';

const PUBLIC = 'channel:7';
const STAFF = 'channel:8';

async function seed(db: Database, ws: string, perChannel: number): Promise<void> {
  await withWorkspace(db, ws, async (tx) => {
    for (const audience of ['workspace', PUBLIC, STAFF]) {
      const [a] = await tx.query<{ id: string }>(
        `insert into artifacts (workspace_id, kind, source_key, title, status, audience) values ($1, 'text', $2, $2, 'ready', $3) returning id`,
        [ws, `${ws}:${audience}`, audience],
      );
      await addPassages(tx, ws, (a as { id: string }).id, perChannel);
    }
  });
}

async function addPassages(tx: Queryable, ws: string, artifactId: string, n: number, from = 0): Promise<void> {
  await tx.query(
    `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash)
     select $1, $2, g, 'passage ' || g, md5('passage ' || g) from generate_series($3::int, $3::int + $4::int - 1) g`,
    [ws, artifactId, from, n],
  );
}

async function storeFacts(db: Database, ws: string, everyone: string[]): Promise<void> {
  await withWorkspace(db, ws, (tx) =>
    tx.query(
      `insert into guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at, everyone_audiences)
       values ($1, '1', '2', '[]', '[]', now(), $2::text[])
       on conflict (workspace_id) do update set everyone_audiences = excluded.everyone_audiences, fetched_at = excluded.fetched_at`,
      [ws, everyone],
    ),
  );
}

async function state(db: Database, ws: string) {
  return withService(db, async (tx) => {
    const [facts] = await tx.query<{ follow: string[] | null; everyone: string[] }>(
      'select everyone_flags_follow as follow, everyone_audiences as everyone from guild_facts where workspace_id = $1',
      [ws],
    );
    const flags = await tx.query<{ audience: string; flagged: number; total: number }>(
      'select audience, count(*) filter (where readable_by_everyone)::int as flagged, count(*)::int as total from chunks where workspace_id = $1 group by audience order by audience',
      [ws],
    );
    const [jobs] = await tx.query<{ queued: number; done: number }>(
      `select count(*) filter (where status = 'queued')::int as queued, count(*) filter (where status = 'done')::int as done
         from jobs where workspace_id = $1 and task = 'everyone_flags'`,
      [ws],
    );
    return { follow: facts?.follow ?? null, everyone: facts?.everyone, flags: Object.fromEntries(flags.map((f) => [f.audience, `${f.flagged}/${f.total}`])), jobs };
  });
}

describeDb('everyone flags rewrite', (suite) => {
  let ws = '';
  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'everyone-flags');
    await seed(suite.db, ws, 30);
  });

  it('storing facts that change the everyone set rewrites no passage and queues one rewrite per workspace', async () => {
    await storeFacts(suite.db, ws, [PUBLIC]);
    expect(await state(suite.db, ws)).toMatchObject({ follow: null, flags: { workspace: '30/30', [PUBLIC]: '0/30', [STAFF]: '0/30' }, jobs: { queued: 1 } });
    await storeFacts(suite.db, ws, [PUBLIC, STAFF]);
    await storeFacts(suite.db, ws, [PUBLIC]);
    expect(await state(suite.db, ws)).toMatchObject({ follow: null, flags: { [PUBLIC]: '0/30' }, jobs: { queued: 1 } });
  });

  it('rewrites in batches, marks the flags current only at the end, and completes its job in that transaction', async () => {
    const [job] = await claimJobs(suite.db, { workerId: 'w', limit: 1, leaseMs: 60_000 });
    expect(job).toMatchObject({ task: 'everyone_flags', workspaceId: ws });
    const during: (string[] | null)[] = [];
    const outcome = await rewriteEveryoneFlags(suite.db, ws, {
      batchSize: 7,
      onBatch: async () => void during.push((await state(suite.db, ws)).follow),
      onSettled: (tx) => completeJob(tx, job?.id as string, 'w'),
    });
    expect(outcome).toEqual({ rewritten: 30, batches: 5, rounds: 1, settled: true });
    expect(during.every((f) => f === null)).toBe(true);
    expect(await state(suite.db, ws)).toMatchObject({ follow: [PUBLIC], flags: { workspace: '30/30', [PUBLIC]: '30/30', [STAFF]: '0/30' }, jobs: { queued: 0, done: 1 } });
    // Again: nothing to do, and the same set stored again leaves the flags current.
    expect(await rewriteEveryoneFlags(suite.db, ws)).toEqual({ rewritten: 0, batches: 0, rounds: 1, settled: false });
    await storeFacts(suite.db, ws, [PUBLIC]);
    expect(await state(suite.db, ws)).toMatchObject({ follow: [PUBLIC], jobs: { queued: 0 } });
  });

  it('goes again when the facts change under it, and settles on the latest', async () => {
    await storeFacts(suite.db, ws, [STAFF]);
    let changed = false;
    const outcome = await rewriteEveryoneFlags(suite.db, ws, {
      batchSize: 10,
      // After the last batch, before the check: only the check can see it.
      onBatch: async (rewritten) => {
        if (changed || rewritten === 10) return;
        changed = true;
        await storeFacts(suite.db, ws, [PUBLIC, STAFF]);
      },
    });
    expect(outcome.rounds).toBe(2);
    expect(outcome.settled).toBe(true);
    expect(await state(suite.db, ws)).toMatchObject({ follow: [PUBLIC, STAFF], flags: { [PUBLIC]: '30/30', [STAFF]: '30/30' } });
  });

  it('a passage written while a rewrite is pending takes the pending facts, and is right once it completes', async () => {
    await storeFacts(suite.db, ws, [PUBLIC]);
    await withWorkspace(suite.db, ws, async (tx) => {
      const [staff] = await tx.query<{ id: string }>('select id from artifacts where workspace_id = $1 and audience = $2', [ws, STAFF]);
      const [pub] = await tx.query<{ id: string }>('select id from artifacts where workspace_id = $1 and audience = $2', [ws, PUBLIC]);
      await addPassages(tx, ws, (staff as { id: string }).id, 5, 100);
      await addPassages(tx, ws, (pub as { id: string }).id, 5, 100);
    });
    // The new passages follow the stored facts at once; the old ones wait for the rewrite.
    expect(await state(suite.db, ws)).toMatchObject({ follow: null, flags: { [PUBLIC]: '35/35', [STAFF]: '30/35' } });
    expect(await rewriteEveryoneFlags(suite.db, ws)).toMatchObject({ rewritten: 30, settled: true });
    expect(await state(suite.db, ws)).toMatchObject({ follow: [PUBLIC], flags: { [PUBLIC]: '35/35', [STAFF]: '0/35' } });
  });

  it('stopped midway, it leaves the flags lagging; the sweeper queues it again and the next run settles them', async () => {
    await withService(suite.db, (tx) => tx.query("delete from jobs where workspace_id = $1 and task = 'everyone_flags'", [ws]));
    await storeFacts(suite.db, ws, [STAFF]);
    await withService(suite.db, (tx) => tx.query("delete from jobs where workspace_id = $1 and task = 'everyone_flags'", [ws]));
    const abort = new AbortController();
    await expect(rewriteEveryoneFlags(suite.db, ws, { batchSize: 20, signal: abort.signal, onBatch: () => abort.abort(new Error('worker killed')) })).rejects.toThrow('worker killed');
    const stopped = await state(suite.db, ws);
    expect(stopped).toMatchObject({ follow: null, jobs: { queued: 0 } });
    const flagged = (f: string | undefined) => Number(f?.split('/')[0]);
    expect(35 - flagged(stopped.flags[PUBLIC]) + flagged(stopped.flags[STAFF]), 'one batch written').toBe(20);
    expect(await enqueueLaggingEveryoneFlags(suite.db)).toBe(1);
    expect(await enqueueLaggingEveryoneFlags(suite.db)).toBe(0);
    expect(await rewriteEveryoneFlags(suite.db, ws)).toMatchObject({ rewritten: 50, settled: true });
    expect(await state(suite.db, ws)).toMatchObject({ follow: [STAFF], flags: { [PUBLIC]: '0/35', [STAFF]: '35/35' } });
  });
});

describePostgres('everyone flags rewrite against a concurrent writer', (suite) => {
  it('does not mark the flags current while a writer that read the older facts has not committed', async () => {
    const ws = await createWorkspace(suite.db, 'everyone-flags-race');
    await seed(suite.db, ws, 3);
    await storeFacts(suite.db, ws, [PUBLIC]);
    await rewriteEveryoneFlags(suite.db, ws);
    const writer = openPostgres({ url: suite.url as string, display: 'writer', prepare: true, maxConnections: 1 });
    let commit: () => void = () => {};
    const committed = new Promise<void>((resolve) => (commit = resolve));
    try {
      let written = () => {};
      const wrote = new Promise<void>((resolve) => (written = resolve));
      // A save that flags its passage by #7 public, and has not committed when #7 becomes private.
      const save = withWorkspace(writer, ws, async (tx) => {
        const [pub] = await tx.query<{ id: string }>('select id from artifacts where workspace_id = $1 and audience = $2', [ws, PUBLIC]);
        await addPassages(tx, ws, (pub as { id: string }).id, 1, 500);
        written();
        await committed;
      });
      await wrote;
      await storeFacts(suite.db, ws, []);
      let finished = false;
      const rewrite = rewriteEveryoneFlags(suite.db, ws).finally(() => (finished = true));
      // The rewrite's check waits for the writer (its exclusive lock against the writer's shared
      // one). Without that lock it would finish, and mark the flags current, before the commit.
      await waitUntil(
        async () => finished || (await suite.db.query<{ n: number }>("select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted"))[0]?.n,
        { what: 'the rewrite to wait for the writer, or finish' },
      );
      commit();
      await save;
      const outcome = await rewrite;
      expect(await state(suite.db, ws)).toMatchObject({ follow: [], flags: { [PUBLIC]: '0/4' } });
      expect(outcome).toMatchObject({ rounds: 2, settled: true });
    } finally {
      commit();
      await writer.close();
    }
  });
});
