/**
 * Benchmark of the built-in embedder (local-hash-v1): speed, and retrieval quality on the fastify
 * documentation that ships in the fastify npm package (Reference and Guides), with the questions
 * in fastify-questions.ts.
 *
 *   npm run bench:local-embedder                           (passages as chunkDocument makes them by default)
 *   npm run bench:local-embedder -- --merge                (with mergeSmallSections: true, for comparison)
 *   npm run bench:local-embedder -- --model local-hash-v2  (the other local model, for a same-state comparison)
 *
 * Speed is passages per second (wall and CPU time) beside a reference measured in the same run on
 * the same passages (sha256 of each passage: a fixed, linear cost), since machines are shared and noisy.
 * Quality is recall@5 and MRR of the vector leg alone (exact cosine in memory), and recall@5 of
 * match_artifacts (vector + keyword, RRF, min similarity 0.15) on an in-memory PGlite.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkDocument, chunkingVersion, textForEmbedding } from '@brain/chunking';
import { EVERYTHING, matchArtifacts, migrate, openPglite, toVectorLiteral, withService, withWorkspace } from '@brain/db';
import { createLocalEmbedder, LOCAL_EMBEDDING_MODEL, LOCAL_EMBEDDING_MODELS, type LocalModel } from '../src/index.ts';
import { QUESTIONS, type Question } from './fastify-questions.ts';

interface Passage {
  file: string;
  heading: string;
  content: string;
  vector: number[];
  id?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const docsRoot = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');
const fastifyVersion = (JSON.parse(readFileSync(path.join(docsRoot, '../package.json'), 'utf8')) as { version: string }).version;
const mergeSmallSections = process.argv.includes('--merge');
// --model local-hash-v2 measures the other local model on the same machine state, for a before/after.
const modelArg = process.argv[process.argv.indexOf('--model') + 1];
const model: LocalModel = process.argv.includes('--model') && (LOCAL_EMBEDDING_MODELS as readonly string[]).includes(modelArg ?? '') ? (modelArg as LocalModel) : LOCAL_EMBEDDING_MODEL;
const embedder = createLocalEmbedder(model);

const passages: Omit<Passage, 'vector'>[] = [];
for (const dir of ['Reference', 'Guides']) {
  for (const file of readdirSync(path.join(docsRoot, dir)).sort()) {
    // The ecosystem list and the indexes are link tables, not prose anyone asks about.
    if (!file.endsWith('.md') || file === 'Ecosystem.md' || file === 'Index.md') continue;
    const text = readFileSync(path.join(docsRoot, dir, file), 'utf8');
    for (const chunk of chunkDocument({ title: file.replace(/\.md$/, '').replace(/-/g, ' '), text }, { mergeSmallSections })) {
      passages.push({ file, heading: chunk.heading, content: chunk.content });
    }
  }
}
const texts = passages.map(textForEmbedding);

// Speed: warm up, then 5 alternating runs of each; medians.
await embedder.embed(texts.slice(0, 100));
const embedRuns: number[] = [];
const embedCpuRuns: number[] = [];
const referenceRuns: number[] = [];
let vectors: number[][] = [];
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
for (let run = 0; run < 5; run++) {
  let start = performance.now();
  for (const text of texts) createHash('sha256').update(text).digest();
  referenceRuns.push(performance.now() - start);
  start = performance.now();
  const cpu = process.cpuUsage();
  vectors = await embedder.embed(texts);
  embedCpuRuns.push(cpuMs(cpu));
  embedRuns.push(performance.now() - start);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const perSecond = (ms: number) => Math.round((texts.length / ms) * 1000);
const corpus: Passage[] = passages.map((p, i) => ({ ...p, vector: vectors[i] as number[] }));

const isRelevant = (question: Question, passage: Passage) =>
  question.relevant.some(
    (r) => r.file === passage.file && [r.heading, r.content].every((key) => key === undefined || textForEmbedding(passage).includes(key)),
  );
const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

// The same passages in match_artifacts. The HNSW indexes are dropped: with fewer than 2,000 passages
// the function searches exactly anyway, and building an index row by row in WASM is slow.
const db = await openPglite();
await migrate(db);
await db.exec('drop index public.chunks_embedding_everyone_hnsw_idx; drop index public.chunks_embedding_restricted_hnsw_idx');
const workspaceId = await withService(db, async (tx) => {
  const [workspace] = await tx.query<{ id: string }>("insert into workspaces (slug, name) values ('bench', 'bench') returning id");
  const id = (workspace as { id: string }).id;
  const artifacts = new Map<string, string>();
  for (const file of new Set(corpus.map((p) => p.file))) {
    const [row] = await tx.query<{ id: string }>(
      "insert into artifacts (workspace_id, kind, source_key, title, status) values ($1, 'text', $2, $2, 'ready') returning id",
      [id, file],
    );
    artifacts.set(file, (row as { id: string }).id);
  }
  const rows = corpus.map((p, ordinal) => ({ a: artifacts.get(p.file), o: ordinal, h: p.heading, c: p.content, e: toVectorLiteral(p.vector) }));
  const inserted = await tx.query<{ id: string; ordinal: number }>(
    // Ids derived from the ordinal: match_artifacts breaks score ties by id, so random ids would
    // make the hybrid figures vary from run to run.
    `insert into chunks (id, workspace_id, artifact_id, ordinal, heading, content, content_hash, embedding, embedding_model, is_live)
     select md5('bench-' || (r->>'o'))::uuid, $1, (r->>'a')::uuid, (r->>'o')::int, r->>'h', r->>'c', md5(r->>'c'), (r->>'e')::vector, $3, true
     from jsonb_array_elements($2::jsonb) r
     returning id, ordinal`,
    [id, JSON.stringify(rows), model],
  );
  for (const { id: chunkId, ordinal } of inserted) (corpus[ordinal] as Passage).id = chunkId;
  return id;
});
const byId = new Map(corpus.map((p) => [p.id, p]));

const perQuestion: { question: string; kind: Question['kind']; vectorRank: number; relevantSimilarity: number; hybridHit: boolean }[] = [];
for (const question of QUESTIONS) {
  const [queryVector] = await embedder.embed([question.question]);
  const ranked = corpus.map((p) => ({ p, similarity: dot(queryVector as number[], p.vector) })).sort((a, b) => b.similarity - a.similarity);
  const rank = ranked.findIndex((r) => isRelevant(question, r.p));
  const hits = await withWorkspace(db, workspaceId, (tx) =>
    matchArtifacts(tx, { audience: EVERYTHING, workspaceId, embedding: queryVector, queryText: question.question, matchCount: 5, minSimilarity: 0.15 }),
  );
  perQuestion.push({
    question: question.question,
    kind: question.kind,
    vectorRank: rank + 1,
    relevantSimilarity: Number((ranked[rank]?.similarity ?? 0).toFixed(4)),
    hybridHit: hits.some((hit) => isRelevant(question, byId.get(hit.chunkId) as Passage)),
  });
}
await db.close();

const summarise = (kind?: Question['kind']) => {
  const rows = perQuestion.filter((q) => kind === undefined || q.kind === kind);
  return {
    questions: rows.length,
    vectorRecallAt5: Number((rows.filter((q) => q.vectorRank >= 1 && q.vectorRank <= 5).length / rows.length).toFixed(3)),
    vectorMrr: Number((rows.reduce((s, q) => s + (q.vectorRank > 0 ? 1 / q.vectorRank : 0), 0) / rows.length).toFixed(3)),
    hybridRecallAt5: Number((rows.filter((q) => q.hybridHit).length / rows.length).toFixed(3)),
  };
};
const similarities = perQuestion.map((q) => q.relevantSimilarity);
const result = {
  benchmark: 'local-embedder',
  command: `npm run bench:local-embedder${mergeSmallSections || model !== LOCAL_EMBEDDING_MODEL ? ' --' : ''}${mergeSmallSections ? ' --merge' : ''}${model !== LOCAL_EMBEDDING_MODEL ? ` --model ${model}` : ''}`,
  model,
  chunking: chunkingVersion,
  corpus: {
    source: `fastify@${fastifyVersion} docs/Reference + docs/Guides`,
    mergeSmallSections,
    passages: corpus.length,
    passagesUnder120Chars: corpus.filter((p) => p.content.length < 120).length,
  },
  speed: {
    passagesPerSecond: perSecond(median(embedRuns)),
    // CPU time is steadier than wall time when other processes share the cores.
    passagesPerCpuSecond: perSecond(median(embedCpuRuns)),
    referenceSha256PassagesPerSecond: perSecond(median(referenceRuns)),
    ratioToReference: Number((median(referenceRuns) / median(embedRuns)).toFixed(4)),
    meanPassageChars: Math.round(texts.reduce((n, t) => n + t.length, 0) / texts.length),
    runs: 5,
  },
  quality: {
    all: summarise(),
    lexical: summarise('lexical'),
    paraphrase: summarise('paraphrase'),
    relevantSimilarity: { min: Math.min(...similarities), median: median(similarities), belowDefaultThreshold: similarities.filter((s) => s < 0.15).length },
  },
  perQuestion,
  node: process.version,
  measuredAt: new Date().toISOString(),
};
const out = path.join(repoRoot, `bench/results/local-embedder${model !== LOCAL_EMBEDDING_MODEL ? `-${model}` : ''}${mergeSmallSections ? '-merged' : ''}.json`);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
console.log(JSON.stringify({ speed: result.speed, quality: { ...result.quality } }, null, 2));
console.log(`wrote ${path.relative(repoRoot, out)}; reproduce with: ${result.command}`);
