// npm run bench:sync [-- --threads 2000 --messages-per-thread 50 --concurrency 8 --kill-at 0.5 --database-url postgres://… --backfill-only]
// A /sync backfill against Discord's rate limits (issue 13, "Measure it"). The fake Discord REST
// (loopback, the bot's global 50 requests/s and per-route buckets) holds one text channel of
// `threads` archived threads; the database is real (an embedded data directory, or PostgreSQL
// with --database-url) and so is the worker that indexes with the local embedder.
//  1. backfill: one pass in a child process; messages/s beside the bound the limits allow (the
//     fewest requests the channel's shape needs, at 50 a second, or a route bucket if it binds);
//  2. kill -9: a second workspace's pass, its child killed with SIGKILL once `kill-at` of the
//     threads were read, then resumed (same run id) in a new child; after indexing, duplicate and
//     missing passages counted against every message of the fake;
//  3. re-sync of the unchanged channel: requests made, sources saved, passages re-embedded.
// Writes bench/results/sync-*.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@brain/config';
import { migrate, openDatabase, withService, type Database } from '@brain/db';
import { addSyncedChannel, createDiscordHistory, syncChannel, SYNC_CONCURRENCY, type SyncOutcome } from '@brain/discord';
import { createLocalEmbedder, type Embedder } from '@brain/embeddings';
import { createLogger } from '@brain/observability';
import { DISCORD_GLOBAL_PER_SECOND, startFakeDiscordHistory } from '@brain/testkit';
import { startWorker } from '@brain/worker';
import { buildIngestRuntime } from '../../apps/cli/src/services/ingest.ts';
import { openBenchDb } from '../ingest/bench-db.ts';
import { dbTarget, type BenchDbTarget, type SyncChildArgs } from './bench-target.ts';
import { buildBenchChannel } from './fake-channel.ts';

const { values: args } = parseArgs({
  options: {
    threads: { type: 'string', default: '2000' },
    'messages-per-thread': { type: 'string', default: '50' },
    concurrency: { type: 'string', default: String(SYNC_CONCURRENCY) },
    'kill-at': { type: 'string', default: '0.5' },
    'database-url': { type: 'string' },
    // The measured backfill alone, for repeated runs: kill -9, indexing and re-sync take minutes more.
    'backfill-only': { type: 'boolean', default: false },
  },
});
const threads = Number(args.threads);
const perThread = Number(args['messages-per-thread']);
const concurrency = Number(args.concurrency);
const killAt = Number(args['kill-at']);
const adminUrl = args['database-url'] ?? process.env.BENCH_DATABASE_URL;
const BOT_TOKEN = 'bench-sync-bot';
const THREADS_PER_PAGE = 100;
const MESSAGES_PER_PAGE = 100;
const logger = createLogger({ level: 'error' });
const began = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${line}`);

const history = await startFakeDiscordHistory();
const channel = buildBenchChannel(history, threads, perThread);
const totalMessages = channel.messageIds.size;
log(`fake channel: ${threads} archived threads × ${perThread} messages = ${totalMessages} messages`);

/**
 * The fewest requests one pass can make for this channel, and what the limits make of them: at
 * the global 50/s, and per route bucket (its requests, in windows of the bucket's size).
 */
function bound() {
  const threadPages = Math.floor(perThread / MESSAGES_PER_PAGE) + 1;
  const archivedPages = Math.max(1, Math.ceil(threads / THREADS_PER_PAGE));
  const byBucket: Record<string, number> = {
    'channel:channel': 1,
    'active-threads:guild': 1,
    'archived-threads:channel': archivedPages + 1,
    'messages:channel (its own messages)': 1,
    'messages:each thread': threadPages,
    'pins:channel': 1,
  };
  const requests = 1 + 1 + archivedPages + 1 + threads * threadPages + 1 + 1;
  const globalSeconds = requests / DISCORD_GLOBAL_PER_SECOND;
  // The fake's default route bucket: 50 per second per route and channel.
  const routeSeconds = Math.max(...Object.values(byBucket).map((n) => Math.max(0, Math.ceil(n / 50) - 1)));
  const seconds = Math.max(globalSeconds, routeSeconds);
  return {
    requests,
    global_per_second: DISCORD_GLOBAL_PER_SECOND,
    route_bucket: '50 per 1 s per route and channel (the fake’s default)',
    binding: globalSeconds >= routeSeconds ? 'global' : 'route',
    seconds: Math.round(seconds * 100) / 100,
    messages_per_second: Math.round(totalMessages / seconds),
    ceiling_at_100_per_request: DISCORD_GLOBAL_PER_SECOND * MESSAGES_PER_PAGE,
  };
}

// The database: a fresh PostgreSQL database, or an embedded data directory the children open in turn.
let target: BenchDbTarget;
let closeBench: () => Promise<void>;
let engine: string;
let dataDir: string | undefined;
if (adminUrl) {
  const bench = await openBenchDb(adminUrl);
  target = { kind: 'postgres', url: bench.url as string };
  engine = bench.engine;
  await bench.db.close();
  closeBench = () => bench.close();
} else {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-bench-sync-'));
  target = { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') };
  engine = 'PGlite (data directory)';
  closeBench = async () => fs.rmSync(dataDir as string, { recursive: true, force: true });
}
const open = () => openDatabase(dbTarget(target), { command: 'bench:sync' });

/** A workspace syncing the channel; one server belongs to one workspace, so the second has none on record. */
async function setUp(db: Database, slug: string, guildId: string | null) {
  const [ws] = await withService(db, (tx) =>
    tx.query<{ id: string }>("insert into workspaces (slug, guild_id, claim_email, claimed_at) values ($1, $2, 'bench@example.com', now()) returning id", [slug, guildId]),
  );
  const workspaceId = ws?.id as string;
  const { channel: synced } = await addSyncedChannel(db, { workspaceId, guildId: channel.guildId, channelId: channel.channelId, channelName: 'help', kind: 'text', pinsOnly: false, addedBy: 'bench' });
  const [job] = await withService(db, (tx) =>
    tx.query<{ id: string }>("select id from jobs where task = 'sync_channel' and payload ->> 'synced_channel_id' = $1", [synced.id]),
  );
  return { workspaceId, syncedChannelId: synced.id, runId: job?.id as string };
}

let setup: { a: Awaited<ReturnType<typeof setUp>>; b: Awaited<ReturnType<typeof setUp>> };
{
  const db = await open();
  await migrate(db);
  setup = { a: await setUp(db, 'bench-sync-a', channel.guildId), b: await setUp(db, 'bench-sync-b', null) };
  // The passes run in the children, not in a worker: their job ids are only the run ids.
  await withService(db, (tx) => tx.query("delete from jobs where task = 'sync_channel'"));
  await db.close();
}

interface ChildResult {
  outcome?: SyncOutcome;
  ms?: number;
  signal: NodeJS.Signals | null;
  code: number | null;
}

/** Runs one pass in a child; `killWhen` is polled and, once true, the child gets SIGKILL. */
function runChild(pass: { workspaceId: string; syncedChannelId: string; runId: string }, killWhen?: () => boolean): Promise<ChildResult> {
  const childArgs: SyncChildArgs = { db: target, apiBase: history.apiBase, botToken: BOT_TOKEN, ...pass, concurrency };
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./sync-child.ts', import.meta.url).pathname, JSON.stringify(childArgs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const timer = killWhen
    ? setInterval(() => {
        if (killWhen()) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 5)
    : undefined;
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearInterval(timer);
      const line = out.trim().split('\n').at(-1);
      const parsed = line ? (JSON.parse(line) as { outcome: SyncOutcome; ms: number }) : {};
      resolve({ ...parsed, code, signal });
    });
  });
}

const threadSet = new Set(channel.threadIds);
const threadReads = () => history.requests.filter((r) => threadSet.has(r.path.split('/')[4] ?? '') && r.path.endsWith('/messages')).length;
const snapshot = () => ({ requests: history.requests.length, ...history.rateLimitCounts() });
const delta = (a: ReturnType<typeof snapshot>) => {
  const b = snapshot();
  return { requests: b.requests - a.requests, global_429: b.global - a.global, route_429: b.route - a.route };
};

// 1. The backfill, measured.
const limits = bound();
log(`bound: ${limits.requests} requests → ${limits.seconds} s at ${limits.global_per_second}/s = ${limits.messages_per_second} messages/s (${limits.binding} limit binds)`);
let mark = snapshot();
const loadAtBackfill = os.loadavg()[0] as number;
const backfill = await runChild(setup.a);
if (!backfill.outcome || backfill.ms === undefined) throw new Error(`backfill child failed (exit ${backfill.code}, ${backfill.signal})`);
const backfillRequests = delta(mark);
const messagesPerSecond = totalMessages / (backfill.ms / 1000);
log(`backfill: ${(backfill.ms / 1000).toFixed(1)} s, ${Math.round(messagesPerSecond)} messages/s = ${((messagesPerSecond / limits.messages_per_second) * 100).toFixed(1)} % of the bound; ${JSON.stringify(backfillRequests)}`);

/** Phases 2 and 3: kill -9 and resume, indexing, then the unchanged re-sync. */
async function killResumeAndResync() {
  // 2. kill -9 mid-backfill, then resume.
  mark = snapshot();
  const readsBefore = threadReads();
  const killAfter = Math.floor(threads * killAt);
  const killed = await runChild(setup.b, () => threadReads() - readsBefore >= killAfter);
  const readAtKill = threadReads() - readsBefore;
  log(`killed: ${killed.signal ?? `exit ${killed.code}`} after ${readAtKill} thread reads`);
  const resumed = await runChild(setup.b);
  if (!resumed.outcome) throw new Error(`resume child failed (exit ${resumed.code}, ${resumed.signal})`);
  const killRequests = delta(mark);
  log(`resumed: ${JSON.stringify(resumed.outcome)}`);

  // Index what the kill-and-resume workspace holds; the measured backfill's sources stay unindexed.
  const db = await open();
  let embedded = 0;
  const local = createLocalEmbedder();
  const counting: Embedder = { model: local.model, dimensions: local.dimensions, embed: async (texts, options) => ((embedded += texts.length), local.embed(texts, options)) };
  const config = loadConfig({ BRAIN_PLAYGROUND: 'off' }, { cwd: process.cwd() });
  const runtime = buildIngestRuntime(config, db, logger, counting);
  const skippedIndexing = await withService(db, (tx) => tx.query<{ n: number }>("with d as (delete from jobs where workspace_id = $1 and status = 'queued' returning 1) select count(*)::int as n from d", [setup.a.workspaceId]));
  const worker = await startWorker(runtime.services, { logger, pollMs: 50, concurrency: config.worker.concurrency, jobsPerWorkspace: config.worker.concurrency });

  async function settle(): Promise<void> {
    for (;;) {
      const [row] = await withService(db, (tx) => tx.query<{ n: number }>("select count(*)::int as n from jobs where status in ('queued', 'running')"));
      if (row?.n === 0) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const indexStarted = performance.now();
  await settle();
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  log(`indexed workspace b in ${indexSeconds.toFixed(1)} s (${embedded} passages embedded)`);

  // Every message of the fake must be in exactly one live passage of workspace b.
  const spans = await withService(db, (tx) =>
    tx.query<{ message_id: string; passages: number }>(
      `select s ->> 'message_id' as message_id, count(distinct c.id)::int as passages
       from chunks c cross join lateral jsonb_array_elements(c.message_spans) s
       where c.workspace_id = $1 and c.is_live group by 1`,
      [setup.b.workspaceId],
    ),
  );
  const [passageRow] = await withService(db, (tx) =>
    tx.query<{ live: number; distinct_live: number; artifacts: number; ready: number }>(
      `select count(*)::int as live, count(distinct (c.artifact_id, c.content))::int as distinct_live,
              (select count(*)::int from artifacts where workspace_id = $1) as artifacts,
              (select count(*)::int from artifacts where workspace_id = $1 and status = 'ready') as ready
       from chunks c where c.workspace_id = $1 and c.is_live`,
      [setup.b.workspaceId],
    ),
  );
  const covered = new Map(spans.map((s) => [s.message_id, s.passages]));
  const missing = [...channel.messageIds].filter((id) => !covered.has(id)).length;
  const duplicateMessages = spans.reduce((n, s) => n + Math.max(0, s.passages - 1), 0);
  const duplicatePassages = (passageRow?.live ?? 0) - (passageRow?.distinct_live ?? 0);
  log(`kill -9 + resume: ${missing} missing messages, ${duplicateMessages} messages in more than one passage, ${duplicatePassages} duplicate passages; ${passageRow?.ready}/${passageRow?.artifacts} sources ready`);

  // 3. Re-sync the unchanged channel.
  mark = snapshot();
  embedded = 0;
  const reader = createDiscordHistory({ apiBase: history.apiBase, botToken: BOT_TOKEN });
  const resyncStarted = performance.now();
  const resync = await syncChannel(db, reader, { workspaceId: setup.b.workspaceId, syncedChannelId: setup.b.syncedChannelId, runId: crypto.randomUUID(), concurrency });
  const resyncSeconds = (performance.now() - resyncStarted) / 1000;
  const resyncRequests = delta(mark);
  await settle();
  log(`re-sync: ${JSON.stringify(resync)} in ${resyncSeconds.toFixed(1)} s, ${JSON.stringify(resyncRequests)}, ${embedded} passages re-embedded`);

  await worker.stop();
  await runtime.close();
  await db.close();
  return {
    kill_and_resume: {
      killed_by: killed.signal,
      thread_reads_before_kill: readAtKill,
      resumed: resumed.outcome,
      ...killRequests,
      index_seconds: Math.round(indexSeconds * 10) / 10,
      unindexed_backfill_jobs_dropped: skippedIndexing[0]?.n ?? 0,
      sources: passageRow?.artifacts,
      sources_ready: passageRow?.ready,
      live_passages: passageRow?.live,
      missing_messages: missing,
      messages_in_more_than_one_passage: duplicateMessages,
      duplicate_passages: duplicatePassages,
    },
    resync: { seconds: Math.round(resyncSeconds * 10) / 10, outcome: resync, ...resyncRequests, passages_reembedded: embedded },
  };
}
const later = args['backfill-only'] ? {} : await killResumeAndResync();

await history.close();
await closeBench();

const result = {
  bench: 'sync',
  at: new Date().toISOString(),
  engine,
  machine: { cpus: os.cpus().length, load_average_1m_before_backfill: Math.round(loadAtBackfill * 10) / 10, load_average_1m: Math.round((os.loadavg()[0] as number) * 10) / 10 },
  parameters: { threads, messages_per_thread: perThread, messages: totalMessages, concurrency, kill_at: killAt, backfill_only: args['backfill-only'] },
  bound: limits,
  backfill: {
    seconds: Math.round(backfill.ms / 100) / 10,
    messages_per_second: Math.round(messagesPerSecond),
    of_bound: Math.round((messagesPerSecond / limits.messages_per_second) * 1000) / 1000,
    target_of_bound: 0.8,
    outcome: backfill.outcome,
    ...backfillRequests,
  },
  ...later,
  total_seconds: Math.round((Date.now() - began) / 1000),
};
fs.mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
const file = new URL(`../results/sync-${result.at.replace(/[:.]/g, '-')}.json`, import.meta.url);
fs.writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
log(`wrote ${file.pathname.split('/').slice(-3).join('/')}`);
