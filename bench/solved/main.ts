// npm run bench:solved [-- --boost 1.05]
// The solved-threads eval: does preferring solved sources (packages/answer/src/prefer-solved.ts)
// put the thread that holds the fix first? Saves the pairs of bench/solved/threads.ts (each a
// solved and an open forum post about the same question) and unrelated posts as discord_thread
// sources through saveSource, indexes them with the real worker and the local embedder in PGlite,
// then runs each question through match_artifacts with the workspace's settings (as /ask's
// search does) and ranks sources with the boost off (×1) and on. Reports, for the solved post:
// recall@1, recall@5 and MRR (by source: its best passage), and how often the open post of the
// pair ranks above it. Writes bench/results/solved-*.json.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { embedQuestion, loadRetrievalSettings, preferSolved, SOLVED_BOOST } from '@brain/answer';
import { loadConfig } from '@brain/config';
import { EVERYTHING, matchArtifacts, withService, withWorkspace } from '@brain/db';
import { createLocalEmbedder } from '@brain/embeddings';
import { saveSource, type SourceInput } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { snowflakeAt } from '@brain/testkit';
import { startWorker } from '@brain/worker';
import { buildIngestRuntime } from '../../apps/cli/src/services/ingest.ts';
import { openBenchDb } from '../ingest/bench-db.ts';
import { OTHERS, PAIRS, type EvalThread } from './threads.ts';

const { values: args } = parseArgs({ options: { boost: { type: 'string', default: String(SOLVED_BOOST) } } });
const boost = Number(args.boost);
const GUILD = '970000000000000001';
const FORUM = '970000000000000002';
const logger = createLogger({ level: 'silent' });
const bench = await openBenchDb(undefined);
const db = bench.db;
const [ws] = await withService(db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug, guild_id) values ('solved-eval', $1) returning id", [GUILD]));
const workspaceId = ws?.id as string;

let seq = 0;
const id = () => snowflakeAt(Date.parse('2026-11-01T00:00:00Z') + (seq += 1) * 60_000);
const threadIds = new Map<string, string>();
function inputOf(t: EvalThread): SourceInput {
  const threadId = id();
  threadIds.set(t.key, threadId);
  return {
    kind: 'discord_thread',
    guildId: GUILD,
    threadId,
    parentId: FORUM,
    private: false,
    name: t.title,
    tags: t.solved ? ['solved'] : ['question'],
    solved: t.solved,
    messages: t.messages.map(([author, content], i) => {
      const messageId = i === 0 ? threadId : id();
      return { id: messageId, channelId: threadId, author, at: new Date(Date.parse('2026-11-01T00:00:00Z') + seq * 60_000).toISOString(), content, url: `https://discord.com/channels/${GUILD}/${threadId}/${messageId}`, replyTo: null, attachments: [] };
    }),
  };
}

const embedder = createLocalEmbedder();
const config = loadConfig({ BRAIN_PLAYGROUND: 'off' }, { cwd: process.cwd() });
const runtime = buildIngestRuntime(config, db, logger, embedder);
const worker = await startWorker(runtime.services, { logger, pollMs: 20 });
// Open posts first: fusion's ties go to the older passage, which must not favour the solved one.
for (const t of [...PAIRS.map((p) => p.open), ...PAIRS.map((p) => p.solved), ...OTHERS]) await saveSource(db, { workspaceId, input: inputOf(t), savedBy: 'bench' });
for (;;) {
  const [row] = await withService(db, (tx) => tx.query<{ n: number }>("select count(*)::int as n from jobs where status in ('queued', 'running')"));
  if (row?.n === 0) break;
  await new Promise((r) => setTimeout(r, 50));
}
await worker.stop();
await runtime.close();
const keyOf = new Map(
  (await withService(db, (tx) => tx.query<{ id: string; source_key: string }>('select id, source_key from artifacts where workspace_id = $1', [workspaceId]))).map((r) => [r.id, r.source_key]),
);
const threadOf = (artifactId: string) => [...threadIds.entries()].find(([, t]) => keyOf.get(artifactId) === `discord-thread:${GUILD}/${t}`)?.[0];

/** Sources in rank order (each at its best passage) for one question, with the given boost. */
async function rankedThreads(question: string, factor: number): Promise<string[]> {
  const vector = await embedQuestion(embedder, question, 10_000);
  return withWorkspace(db, workspaceId, async (tx) => {
    const settings = await loadRetrievalSettings(tx, workspaceId);
    const matches = await matchArtifacts(tx, { audience: EVERYTHING, workspaceId, embedding: vector, queryText: question, matchCount: settings?.matchCount ?? 5, minSimilarity: settings?.minSimilarity ?? 0.15 });
    const ranked = await preferSolved(tx, workspaceId, matches, factor);
    return [...new Set(ranked.map((m) => threadOf(m.artifactId) ?? m.artifactId))];
  });
}

const measure = async (factor: number) => {
  const rows: { question: string; solved_rank: number | null; open_rank: number | null; order: string[] }[] = [];
  for (const p of PAIRS) {
    const order = await rankedThreads(p.question, factor);
    const rank = order.indexOf(p.solved.key) + 1;
    const openRank = order.indexOf(p.open.key) + 1;
    rows.push({ question: p.question, solved_rank: rank || null, open_rank: openRank || null, order });
  }
  const n = rows.length;
  const at = (k: number) => rows.filter((r) => r.solved_rank !== null && r.solved_rank <= k).length / n;
  return {
    boost: factor,
    recall_at_1: round(at(1)),
    recall_at_5: round(at(5)),
    mrr: round(rows.reduce((s, r) => s + (r.solved_rank ? 1 / r.solved_rank : 0), 0) / n),
    open_above_solved: rows.filter((r) => r.open_rank !== null && (r.solved_rank === null || r.open_rank < r.solved_rank)).length,
    rows,
  };
};
const round = (x: number) => Math.round(x * 1000) / 1000;

const off = await measure(1);
const on = await measure(boost);
const result = { bench: 'solved', at: new Date().toISOString(), engine: bench.engine, embedder: embedder.model, pairs: PAIRS.length, other_posts: OTHERS.length, k: 5, off, on };
for (const r of [off, on]) console.log(`boost ×${r.boost}: solved post recall@1 ${r.recall_at_1.toFixed(3)}, recall@5 ${r.recall_at_5.toFixed(3)}, MRR ${r.mrr.toFixed(3)}; open post above it in ${r.open_above_solved} of ${PAIRS.length}`);
fs.mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
const file = new URL(`../results/solved-${result.at.replace(/[:.]/g, '-')}.json`, import.meta.url);
fs.writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
console.log(`wrote ${file.pathname.split('/').slice(-3).join('/')} — reproduce with: npm run bench:solved -- --boost ${boost}`);
await bench.close();
