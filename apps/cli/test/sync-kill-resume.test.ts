import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { openPglite, withService, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { addSyncedChannel, listSyncedChannels } from '@brain/discord';
import { createLocalEmbedder } from '@brain/embeddings';
import { createLogger } from '@brain/observability';
import { fakeMessage, snowflakeAt, startFakeDiscordHistory, type FakeDiscordHistory } from '@brain/testkit';
import { startWorker, sweep } from '@brain/worker';
import { seededDataDir, spawnBrain, waitFor, type BrainProcess } from './brain-process.ts';
import { buildIngestRuntime } from '../src/services/ingest.ts';

// A real `brain worker` process takes a /sync backfill and is killed with SIGKILL half-way: no
// shutdown, no abort, a job left running under its lease. A new worker reclaims the job once the
// lease is over and resumes the pass from the units the dead one committed: every message ends
// up in exactly one live passage, and the units done before the kill are not read again.
const GUILD = '950000000000000001';
const CHANNEL = '950000000000000002';
const BOT_TOKEN = 'bot-token-for-kill-tests';
const THREADS = 40;
const t0 = Date.parse('2026-11-20T10:00:00Z');
const logger = createLogger({ level: 'silent' });

describeDb('a /sync backfill whose worker is killed with SIGKILL', (suite) => {
  let history: FakeDiscordHistory;
  let dataDir: string | undefined;
  let worker: BrainProcess | undefined;
  const messageIds = new Set<string>();
  const threadIds: string[] = [];

  beforeAll(async () => {
    history = await startFakeDiscordHistory();
    history.createChannel(CHANNEL, { guildId: GUILD, name: 'big' });
    for (let i = 0; i < THREADS; i++) {
      const id = snowflakeAt(t0 + i * 600_000);
      threadIds.push(id);
      history.createThread(id, { parentId: CHANNEL, name: `Question ${i}` });
      const messages = [0, 1, 2].map((j) => fakeMessage({ id: snowflakeAt(t0 + i * 600_000 + (j + 1) * 1000), channelId: id, author: 'Ken', content: `Thread ${i} says fact ${j}: the code word is ${['amber', 'basil', 'cedar'][j]}-${i}.` }));
      for (const m of messages) messageIds.add(m.id);
      history.addMessages(id, messages);
    }
    // Ten requests a second instead of fifty: the pass takes seconds, long enough to be killed in.
    history.setGlobalLimit(10);
  });

  afterAll(async () => {
    worker?.kill();
    await history?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** PGlite: a data directory the child opens and, after its death, this process. PostgreSQL: the suite's database. */
  async function databaseFor(seed: (db: Database) => Promise<void>): Promise<{ env: Record<string, string>; open: () => Promise<Database> }> {
    if (suite.backend === 'postgres') {
      await seed(suite.db);
      return { env: { DATABASE_URL: suite.url as string }, open: async () => suite.db };
    }
    dataDir = await seededDataDir(seed, 'brain-sync-kill-');
    const dir = dataDir;
    return { env: { BRAIN_DATA_DIR: dir }, open: () => openPglite({ dataDir: path.join(dir, 'pgdata') }) };
  }

  it('resumes from its checkpoint with no duplicate and no missing passage', { timeout: 180_000 }, async () => {
    let workspaceId = '';
    let syncedChannelId = '';
    const target = await databaseFor(async (db) => {
      const [ws] = await withService(db, (tx) =>
        tx.query<{ id: string }>("insert into workspaces (slug, guild_id, claim_email, claimed_at) values ('killed', $1, 'owner@example.com', now()) returning id", [GUILD]),
      );
      workspaceId = ws?.id as string;
      const { channel } = await addSyncedChannel(db, { workspaceId, guildId: GUILD, channelId: CHANNEL, channelName: 'big', kind: 'text', pinsOnly: false, addedBy: 'test' });
      syncedChannelId = channel.id;
    });

    const threadSet = new Set(threadIds);
    const threadReads = () => history.requests.filter((r) => threadSet.has(r.path.split('/')[4] ?? '') && r.path.endsWith('/messages')).length;
    worker = spawnBrain(['worker'], { ...target.env, DISCORD_BOT_TOKEN: BOT_TOKEN, DISCORD_API_BASE: history.apiBase, BRAIN_JOB_LEASE_SECONDS: '2' });
    await waitFor(() => threadReads() >= 15, 90_000, 'the worker to read 15 threads', worker.output);
    worker.child.kill('SIGKILL');
    const died = await worker.exited;
    expect(worker.child.signalCode).toBe('SIGKILL');
    expect(died.code).toBeNull();
    const requestsAtKill = history.requests.length;
    expect(threadReads()).toBeLessThan(THREADS);

    const db = await target.open();
    try {
      const [midway] = await listSyncedChannels(db, workspaceId);
      const done = midway?.checkpoint.done ?? 0;
      expect(midway).toMatchObject({ state: 'backfilling', checkpoint: { total: THREADS } });
      expect(done).toBeGreaterThan(0);
      expect(done).toBeLessThan(THREADS);
      const [job] = await withService(db, (tx) =>
        tx.query<{ id: string; status: string }>("select id, status from jobs where task = 'sync_channel' and payload ->> 'synced_channel_id' = $1", [syncedChannelId]),
      );
      // Nobody told the job: it is still running under the dead worker's lease.
      expect(job?.status).toBe('running');

      // Once the lease is over the sweeper puts the job back (same id); a new worker takes it,
      // finishes the pass and indexes.
      await waitFor(async () => (await sweep(db, { refreshAfterMs: 86_400_000, syncEveryMs: 15 * 60_000 })).requeued === 1, 30_000, 'the expired lease to be requeued');
      const config = loadConfig({ DISCORD_BOT_TOKEN: BOT_TOKEN, DISCORD_API_BASE: history.apiBase, BRAIN_PLAYGROUND: 'off', BRAIN_WORKER_JOBS_PER_WORKSPACE: '2' }, { cwd: process.cwd() });
      const runtime = buildIngestRuntime(config, db, logger, createLocalEmbedder());
      const next = await startWorker(runtime.services, { logger, pollMs: 100, leaseMs: 2_000, jobsPerWorkspace: 2 });
      try {
        await waitFor(
          async () => {
            const [row] = await withService(db, (tx) => tx.query<{ n: number }>("select count(*)::int as n from jobs where status in ('queued', 'running')"));
            return row?.n === 0;
          },
          120_000,
          'the resumed pass and its indexing',
        );
      } finally {
        await next.stop();
        await runtime.close();
      }
      const [after] = await listSyncedChannels(db, workspaceId);
      expect(after).toMatchObject({ state: 'current', sourceCount: THREADS, messageCount: THREADS * 3, checkpoint: { run: job?.id, total: THREADS, done: THREADS } });
      // The threads committed before the kill were not read again (429s and their retries aside).
      const readAgain = new Set(history.requests.slice(requestsAtKill).map((r) => r.path.split('/')[4] ?? '').filter((id) => threadSet.has(id)));
      expect(readAgain.size).toBe(THREADS - done);

      const spans = await withService(db, (tx) =>
        tx.query<{ message_id: string; passages: number }>(
          `select s ->> 'message_id' as message_id, count(distinct c.id)::int as passages
           from chunks c cross join lateral jsonb_array_elements(c.message_spans) s
           where c.workspace_id = $1 and c.is_live group by 1`,
          [workspaceId],
        ),
      );
      const missing = [...messageIds].filter((id) => !spans.some((s) => s.message_id === id));
      expect(missing).toEqual([]);
      expect(spans.filter((s) => s.passages > 1)).toEqual([]);
      const [counts] = await withService(db, (tx) =>
        tx.query<{ live: number; distinct_live: number; artifacts: number }>(
          `select count(*)::int as live, count(distinct (artifact_id, content))::int as distinct_live,
                  (select count(*)::int from artifacts where workspace_id = $1) as artifacts
           from chunks where workspace_id = $1 and is_live`,
          [workspaceId],
        ),
      );
      expect(counts).toMatchObject({ artifacts: THREADS });
      expect(counts?.live).toBe(counts?.distinct_live);
    } finally {
      if (suite.backend === 'pglite') await db.close();
    }
  });
});
