// npm run bench:ingest [-- --docs 24 --latency-ms 50 --batch 16 --api-concurrency 4 --concurrency 2 --pages 20]
// Ingestion throughput (chunks/s per worker) with a fake embedding API and with the local embedder,
// each beside a reference measured in the same run, and save-to-searchable latency of a 100 KB page.
// Without --batch and --api-concurrency the embedder batches as the product does (up to 2,048
// inputs and 300,000 tokens per request, 4 requests at a time).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { chunkDocument, textForEmbedding } from '@brain/chunking';
import { loadConfig } from '@brain/config';
import { EVERYTHING, matchArtifacts, withService, withWorkspace, type Database } from '@brain/db';
import { createLocalEmbedder, createOpenAIEmbedder, type Embedder } from '@brain/embeddings';
import { saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { startFakeHttpServer } from '@brain/testkit';
import { startWorker } from '@brain/worker';
import { buildIngestRuntime } from '../../apps/cli/src/services/ingest.ts';
import { openBenchDb, type BenchDb } from './bench-db.ts';
import { benchDocument, benchPage } from './corpus.ts';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string', default: '24' },
    'doc-kb': { type: 'string', default: '100' },
    'latency-ms': { type: 'string', default: '50' },
    batch: { type: 'string' },
    'api-concurrency': { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    pages: { type: 'string', default: '20' },
  },
});
const docs = Number(args.docs);
const docBytes = Number(args['doc-kb']) * 1024;
const latencyMs = Number(args['latency-ms']);
const batch = args.batch === undefined ? undefined : Number(args.batch);
const apiConcurrency = args['api-concurrency'] === undefined ? undefined : Number(args['api-concurrency']);
const concurrency = Number(args.concurrency);
const pages = Number(args.pages);
const logger = createLogger({ level: 'warn' });
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const median = (xs: number[]) => percentile(xs, 50);
function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

async function workspace(db: Database, slug: string): Promise<string> {
  const [row] = await withService(db, (tx) => tx.query<{ id: string }>('insert into workspaces (slug) values ($1) returning id', [slug]));
  return row?.id as string;
}

/** Chunks per second of one worker indexing `docs` documents, from its start until it is idle. */
async function workerThroughput(bench: BenchDb, embedder: Embedder, slug: string) {
  const ws = await workspace(bench.db, slug);
  const ids: string[] = [];
  for (let i = 0; i < docs; i++) {
    const { artifacts } = await saveSource(bench.db, { workspaceId: ws, input: { kind: 'text', text: benchDocument(i, docBytes) }, savedBy: 'bench' });
    ids.push(artifacts[0]?.artifactId as string);
  }
  const runtime = buildIngestRuntime(loadConfig({}, { cwd: process.cwd() }), bench.db, logger, embedder);
  const started = performance.now();
  // One workspace: let it use every slot, as this measures the worker, not the fair share.
  const worker = await startWorker(runtime.services, { logger, concurrency, jobsPerWorkspace: concurrency, artifactIds: ids, pollMs: 50 });
  await worker.idle();
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  await runtime.close();
  const [row] = await withService(bench.db, (tx) =>
    tx.query<{ chunks: number; failed: number }>(
      "select coalesce(sum(chunk_count), 0)::int as chunks, count(*) filter (where status <> 'ready')::int as failed from artifacts where workspace_id = $1",
      [ws],
    ),
  );
  if (row?.failed) throw new Error(`${row.failed} documents did not index`);
  return { chunks: row?.chunks ?? 0, seconds, chunksPerSecond: (row?.chunks ?? 0) / seconds };
}

/** The reference: the same passages through the embedder alone, `concurrency` documents at a time, no database. */
async function embedderAlone(embedder: Embedder) {
  const texts = Array.from({ length: docs }, (_, i) => chunkDocument({ title: null, text: benchDocument(1000 + i, docBytes) }).map((c) => textForEmbedding(c)));
  const queue = [...texts];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await embedder.embed(next);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const chunks = texts.reduce((n, t) => n + t.length, 0);
  return { chunks, seconds, chunksPerSecond: chunks / seconds };
}

/** Save a 100 KB page by URL with a worker running; time until a search finds it. */
async function saveToSearchable(bench: BenchDb) {
  const site = await startFakeHttpServer('bench-site');
  const ws = await workspace(bench.db, 'latency');
  const config = loadConfig({ BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, { cwd: process.cwd() });
  const runtime = buildIngestRuntime(config, bench.db, logger, createLocalEmbedder());
  const worker = await startWorker(runtime.services, { logger, concurrency });
  const samples: number[] = [];
  try {
    // The first save pays the extraction sandbox's cold start: reported apart, not in the percentiles.
    for (let i = -1; i < pages; i++) {
      const marker = `zyxmarker${i + 2}q`;
      site.on('GET', `/page/${i + 2}`, () => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: benchPage(i + 2, marker) }));
      const started = performance.now();
      await saveSource(bench.db, { workspaceId: ws, input: { kind: 'url', url: `${site.url}/page/${i + 2}` }, savedBy: 'bench' }, runtime.saveOptions);
      for (;;) {
        const hits = await withWorkspace(bench.db, ws, (tx) => matchArtifacts(tx, { audience: EVERYTHING, workspaceId: ws, queryText: marker, matchCount: 1 }));
        if (hits.length > 0) break;
        if (performance.now() - started > 60_000) throw new Error(`page ${i + 2} was not searchable after 60 s`);
        await new Promise((r) => setTimeout(r, 10));
      }
      const ms = performance.now() - started;
      if (i >= 0) samples.push(ms);
      else console.log(`  first save (sandbox cold start included): ${ms.toFixed(0)} ms`);
    }
  } finally {
    await worker.stop();
    await runtime.close();
    await site.close();
  }
  return { pages: samples.length, p50Ms: median(samples), p95Ms: percentile(samples, 95), maxMs: Math.max(...samples) };
}

/** The fake API in a process of its own (see fake-api-process.ts). */
async function startFakeApi(vectors: 'text' | 'random'): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./fake-api-process.ts', import.meta.url).pathname, String(latencyMs), vectors], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on('exit', (code) => reject(new Error(`the fake API exited with ${code}`)));
  });
  return { url, child };
}

async function main(): Promise<void> {
  const bench = await openBenchDb(adminUrl);
  console.log(`Ingestion benchmark on ${bench.engine}; ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const apis = { text: await startFakeApi('text'), random: await startFakeApi('random') };
  const fakeEmbedder = (url: string) =>
    createOpenAIEmbedder({
      apiKey: 'sk-bench',
      baseUrl: url,
      model: 'text-embedding-3-small',
      ...(batch === undefined ? {} : { maxBatchSize: batch }),
      ...(apiConcurrency === undefined ? {} : { concurrency: apiConcurrency }),
    });
  const batching = `${batch === undefined ? 'batches as in production' : `batches of ${batch}`}, ${apiConcurrency ?? 'product default'} requests at a time`;
  try {
    console.log(`fake embedding API: ${latencyMs} ms per request, ${batching}, ${concurrency} jobs at a time`);
    const fakeReference = await embedderAlone(fakeEmbedder(apis.text.url));
    const fakeWorker = await workerThroughput(bench, fakeEmbedder(apis.text.url), 'fake-api');
    console.log(`fake embedding API answering random vectors`);
    const randomReference = await embedderAlone(fakeEmbedder(apis.random.url));
    const randomWorker = await workerThroughput(bench, fakeEmbedder(apis.random.url), 'fake-api-random');
    console.log(`local embedder`);
    const localReference = await embedderAlone(createLocalEmbedder());
    const localWorker = await workerThroughput(bench, createLocalEmbedder(), 'local');
    console.log(`save-to-searchable, ${pages} pages of 100 KB`);
    const latency = await saveToSearchable(bench);

    const result = {
      benchmark: 'ingest',
      at: new Date().toISOString(),
      engine: bench.engine,
      machine: { cores: os.cpus().length, loadAverage: os.loadavg() },
      parameters: { docs, docKb: docBytes / 1024, latencyMs, batch: batch ?? 'product', apiConcurrency: apiConcurrency ?? 'product', concurrency, pages },
      fakeApi: { vectors: 'text-derived', worker: fakeWorker, reference: fakeReference, ratio: fakeWorker.chunksPerSecond / fakeReference.chunksPerSecond },
      fakeApiRandomVectors: { vectors: 'random', worker: randomWorker, reference: randomReference, ratio: randomWorker.chunksPerSecond / randomReference.chunksPerSecond },
      localEmbedder: { worker: localWorker, reference: localReference, ratio: localWorker.chunksPerSecond / localReference.chunksPerSecond },
      saveToSearchable: latency,
      command:
        `npm run bench:ingest -- --docs ${docs} --doc-kb ${docBytes / 1024} --latency-ms ${latencyMs}` +
        (batch === undefined ? '' : ` --batch ${batch}`) +
        (apiConcurrency === undefined ? '' : ` --api-concurrency ${apiConcurrency}`) +
        ` --concurrency ${concurrency} --pages ${pages}` +
        (adminUrl ? ' (with BENCH_DATABASE_URL set)' : ''),
    };
    const stamp = result.at.replace(/[:.]/g, '-');
    const engineTag = adminUrl ? 'postgres' : 'pglite';
    fs.mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
    fs.writeFileSync(new URL(`../results/ingest-${engineTag}-${stamp}.json`, import.meta.url), JSON.stringify(result, null, 2) + '\n');
    fs.writeFileSync(new URL(`../results/ingest-${engineTag}-latest.json`, import.meta.url), JSON.stringify(result, null, 2) + '\n');

    const f = (n: number) => n.toFixed(0);
    console.log(`
| ${bench.engine} | worker (chunks/s) | reference: embedder alone (chunks/s) | worker / reference |
| --- | --- | --- | --- |
| fake API, ${latencyMs} ms per request, ${batching}, ${concurrency} jobs | ${f(fakeWorker.chunksPerSecond)} | ${f(fakeReference.chunksPerSecond)} | ${(result.fakeApi.ratio * 100).toFixed(0)} % |
| the same, random vectors (worst case for the HNSW insert) | ${f(randomWorker.chunksPerSecond)} | ${f(randomReference.chunksPerSecond)} | ${(result.fakeApiRandomVectors.ratio * 100).toFixed(0)} % |
| local embedder, ${concurrency} jobs | ${f(localWorker.chunksPerSecond)} | ${f(localReference.chunksPerSecond)} | ${(result.localEmbedder.ratio * 100).toFixed(0)} % |

save-to-searchable (100 KB page, local embedder, worker running): p50 ${f(latency.p50Ms)} ms, p95 ${f(latency.p95Ms)} ms, max ${f(latency.maxMs)} ms over ${latency.pages} pages
reproduce: ${result.command}`);
  } finally {
    for (const api of Object.values(apis)) api.child.kill('SIGTERM');
    await bench.close();
  }
}

await main();
