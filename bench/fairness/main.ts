// npm run bench:fairness [-- --quiet-saves 20 --hanging 8 --slow 50 --slow-ms 1500 --database-url postgres://…]
// One tenant must not stall the others' indexing (issue 16 item 4). A "quiet" workspace saves
// one-line notes one after another and times each from save to ready: first with the queue idle
// (its reference, measured in the same run), then while a "flood" workspace has queued URLs that
// never answer plus slow pages. Target: loaded p95 within 2× of idle p95. A last phase runs the
// same load with the per-workspace cap raised to the worker's concurrency, to show what it buys.
import http from 'node:http';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig, type BrainConfig } from '@brain/config';
import { withService, type Database } from '@brain/db';
import { saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { startFakeHttpServer, type FakeHttpServer } from '@brain/testkit';
import { startWorker } from '@brain/worker';
import { buildIngestRuntime } from '../../apps/cli/src/services/ingest.ts';
import { openBenchDb } from '../ingest/bench-db.ts';

const { values: args } = parseArgs({
  options: {
    'quiet-saves': { type: 'string', default: '20' },
    hanging: { type: 'string', default: '8' },
    slow: { type: 'string', default: '50' },
    'slow-ms': { type: 'string', default: '1500' },
    'database-url': { type: 'string' },
    'skip-uncapped': { type: 'boolean', default: false },
  },
});
const quietSaves = Number(args['quiet-saves']);
const hanging = Number(args.hanging);
const slow = Number(args.slow);
const slowMs = Number(args['slow-ms']);
const adminUrl = args['database-url'] ?? process.env.BENCH_DATABASE_URL;
const logger = createLogger({ level: 'error' });

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
const summary = (xs: number[]) => ({ saves: xs.length, p50Ms: percentile(xs, 50), p95Ms: percentile(xs, 95), maxMs: Math.max(...xs) });

async function workspace(db: Database, slug: string): Promise<string> {
  const [row] = await withService(db, (tx) => tx.query<{ id: string }>('insert into workspaces (slug) values ($1) returning id', [slug]));
  return row?.id as string;
}

/** A site that accepts connections and reads requests, and never answers. */
async function startSilentSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function slowPage(n: number): string {
  const paragraphs = Array.from({ length: 12 }, (_, p) => `<p>Slow page ${n}, paragraph ${p}: the flood workspace saved this to keep the workers busy while others wait.</p>`);
  return `<!doctype html><html><head><title>Slow page ${n}</title></head><body><article><h1>Slow page ${n}</h1>${paragraphs.join('')}</article></body></html>`;
}

/** Saves one-line notes one after another, each timed from the save until its source is ready. */
async function quietRun(db: Database, ws: string, label: string): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < quietSaves; i++) {
    const started = performance.now();
    const { artifacts } = await saveSource(db, { workspaceId: ws, input: { kind: 'text', text: `${label} note ${i}: the deploy window is Tuesday at ${i % 12} o'clock.` }, savedBy: 'discord:quiet' });
    const id = artifacts[0]?.artifactId as string;
    for (;;) {
      const [row] = await withService(db, (tx) => tx.query<{ status: string }>('select status from artifacts where id = $1', [id]));
      if (row?.status === 'ready') break;
      if (row?.status === 'failed') throw new Error(`quiet note ${i} failed to index`);
      if (performance.now() - started > 120_000) throw new Error(`quiet note ${i} was not ready after 120 s`);
      await new Promise((r) => setTimeout(r, 5));
    }
    samples.push(performance.now() - started);
  }
  return samples;
}

interface Sites {
  silent: string;
  site: FakeHttpServer;
}

async function waitReady(db: Database, id: string): Promise<void> {
  for (const started = performance.now(); performance.now() - started < 60_000; ) {
    const [row] = await withService(db, (tx) => tx.query<{ status: string }>('select status from artifacts where id = $1', [id]));
    if (row?.status === 'ready') return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the warm-up page was not ready after 60 s');
}

async function phase(db: Database, config: BrainConfig, name: string, sites: Sites, flood: boolean) {
  const runtime = buildIngestRuntime(config, db, logger);
  const worker = await startWorker(runtime.services, { logger, concurrency: config.worker.concurrency, jobsPerWorkspace: config.worker.jobsPerWorkspace, leaseMs: config.worker.leaseMs });
  try {
    // Warm the extraction sandbox and the embedder outside the measurement.
    const warm = await workspace(db, `${name}-warm`);
    const { artifacts } = await saveSource(db, { workspaceId: warm, input: { kind: 'url', url: `${sites.site.url}/warm/${name}` }, savedBy: 'bench' });
    await waitReady(db, artifacts[0]?.artifactId as string);
    if (flood) {
      const ws = await workspace(db, `${name}-flood`);
      for (let i = 0; i < hanging; i++) await saveSource(db, { workspaceId: ws, input: { kind: 'url', url: `${sites.silent}/never/${name}/${i}` }, savedBy: 'discord:flood' });
      for (let i = 0; i < slow; i++) await saveSource(db, { workspaceId: ws, input: { kind: 'url', url: `${sites.site.url}/slow/${name}-${i}` }, savedBy: 'discord:flood' });
      // Let the flood take the slots first, as it did in the attack.
      await new Promise((r) => setTimeout(r, 500));
    }
    const quiet = await workspace(db, `${name}-quiet`);
    return summary(await quietRun(db, quiet, name));
  } finally {
    await worker.stop(1_000);
    await runtime.close();
    // What the flood left queued must not spill into the next phase.
    await withService(db, (tx) => tx.query(`delete from jobs where status in ('queued', 'running')`));
  }
}

async function main(): Promise<void> {
  const bench = await openBenchDb(adminUrl);
  const silent = await startSilentSite();
  const site = await startFakeHttpServer('bench-slow-site');
  site.on('GET', '/slow/:n', (req) => ({ delayMs: slowMs, headers: { 'content-type': 'text/html; charset=utf-8' }, body: slowPage(Number(req.path.split('-').pop())) }));
  site.on('GET', '/warm/:phase', () => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: slowPage(0) }));
  const env = { BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1' };
  const config = loadConfig(env, { cwd: process.cwd() });
  console.log(
    `Fairness benchmark on ${bench.engine}; ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n` +
      `worker: concurrency ${config.worker.concurrency}, ${config.worker.jobsPerWorkspace} job(s) per workspace, fetch timeout ${config.worker.fetchTimeoutMs / 1000} s (product defaults)`,
  );
  try {
    console.log(`idle: ${quietSaves} one-line saves, nothing else queued`);
    const sites = { silent: silent.url, site };
    const idle = await phase(bench.db, config, 'idle', sites, false);
    console.log(`loaded: the same, after another workspace queued ${hanging} URLs that never answer and ${slow} pages that take ${slowMs} ms`);
    const loaded = await phase(bench.db, config, 'loaded', sites, true);
    let uncapped: ReturnType<typeof summary> | undefined;
    if (!args['skip-uncapped']) {
      const cap = String(config.worker.concurrency);
      console.log(`reference without the cap: BRAIN_WORKER_JOBS_PER_WORKSPACE=${cap}, same load`);
      uncapped = await phase(bench.db, loadConfig({ ...env, BRAIN_WORKER_JOBS_PER_WORKSPACE: cap }, { cwd: process.cwd() }), 'uncapped', sites, true);
    }
    const ratio = loaded.p95Ms / idle.p95Ms;
    const result = {
      benchmark: 'fairness',
      at: new Date().toISOString(),
      engine: bench.engine,
      machine: { cores: os.cpus().length, loadAverage: os.loadavg() },
      parameters: { quietSaves, hanging, slow, slowMs, concurrency: config.worker.concurrency, jobsPerWorkspace: config.worker.jobsPerWorkspace, fetchTimeoutMs: config.worker.fetchTimeoutMs },
      idle,
      loaded,
      ...(uncapped ? { uncapped: { ...uncapped, jobsPerWorkspace: config.worker.concurrency } } : {}),
      p95Ratio: ratio,
      target: 'loaded p95 within 2x of idle p95',
      met: ratio <= 2,
      command:
        `npm run bench:fairness -- --quiet-saves ${quietSaves} --hanging ${hanging} --slow ${slow} --slow-ms ${slowMs}` +
        (args['skip-uncapped'] ? ' --skip-uncapped' : '') +
        (adminUrl ? ' --database-url <PostgreSQL URL>' : ''),
    };
    const stamp = result.at.replace(/[:.]/g, '-');
    const engineTag = adminUrl ? 'postgres' : 'pglite';
    fs.mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
    for (const name of [`fairness-${engineTag}-${stamp}.json`, `fairness-${engineTag}-latest.json`]) {
      fs.writeFileSync(new URL(`../results/${name}`, import.meta.url), JSON.stringify(result, null, 2) + '\n');
    }
    const f = (n: number) => n.toFixed(0);
    const row = (label: string, s: ReturnType<typeof summary>) => `| ${label} | ${f(s.p50Ms)} | ${f(s.p95Ms)} | ${f(s.maxMs)} |`;
    console.log(`
| ${bench.engine}, ${quietSaves} one-line saves | p50 (ms) | p95 (ms) | max (ms) |
| --- | --- | --- | --- |
${row('idle queue', idle)}
${row(`another workspace flooding (${hanging} hanging + ${slow} slow URLs)`, loaded)}${uncapped ? `\n${row(`the same flood, cap raised to ${config.worker.concurrency}`, uncapped)}` : ''}

loaded p95 / idle p95 = ${ratio.toFixed(2)} (target ≤ 2): ${result.met ? 'met' : 'NOT met'}
reproduce: ${result.command}`);
    if (!result.met) process.exitCode = 1;
  } finally {
    await silent.close();
    await site.close();
    await bench.close();
  }
}

await main();
