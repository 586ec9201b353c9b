// npm run bench dashboard [-- --questions 10000 --sources 200 --rounds 30]
// Server time of every dashboard page with --questions questions in the workspace (and as many in
// another workspace, so Row Level Security has rows to skip), beside GET /healthz (one trivial
// query) measured in the same run. Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) for PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createAccounts, DevOutboxMailer, Signer } from '@brain/accounts';
import { createBillingLinks, createBillingService } from '@brain/billing';
import { loadConfig } from '@brain/config';
import { withService, type Database } from '@brain/db';
import { insertQuestions, insertSources, syntheticQuestions } from '@brain/insights/testing';
import { createLogger } from '@brain/observability';
import { buildApp, type WebApp } from '@brain/web';
import { openBenchDb } from '../ingest/bench-db.ts';

const { values: args } = parseArgs({
  options: {
    questions: { type: 'string', default: '10000' },
    sources: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '30' },
  },
});
const questionCount = Number(args.questions);
const sourceCount = Number(args.sources);
const rounds = Number(args.rounds);
const BUDGET_MS = 100;
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

async function seedWorkspace(db: Database, slug: string, email: string, seed: number): Promise<{ id: string; questionIds: string[] }> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string }>('insert into workspaces (slug, name, claim_email, claimed_at) values ($1, $1, $2, now()) returning id::text', [slug, email]),
  );
  const id = (row as { id: string }).id;
  const sources = await insertSources(
    db,
    id,
    Array.from({ length: sourceCount }, (_, i) => ({
      title: `Source ${i}`,
      url: `https://docs.example.com/page-${i}`,
      passages: 3,
      ...(i % 25 === 0 ? { status: 'failed' as const, errorCode: 'FETCH_TIMEOUT' } : {}),
      ...(i % 40 === 1 ? { forgotten: true } : {}),
    })),
  );
  const questionIds = await insertQuestions(db, id, syntheticQuestions({ count: questionCount, sources, days: 90, seed }));
  return { id, questionIds };
}

async function main(): Promise<void> {
  const bench = await openBenchDb(adminUrl);
  const logger = createLogger({ level: 'warn' });
  try {
    const seedStarted = performance.now();
    const ws = await seedWorkspace(bench.db, 'bench-dashboard', 'owner@example.com', 42);
    await seedWorkspace(bench.db, 'bench-neighbour', 'other@example.com', 7);
    await bench.db.query('analyze');
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const config = loadConfig({ PUBLIC_URL: 'https://brain.example.com' }, { cwd: process.cwd() });
    const signer = new Signer('b'.repeat(40));
    const accounts = createAccounts({ db: bench.db, mailer: new DevOutboxMailer({ print: () => {} }), logger, publicUrl: config.publicUrl });
    const links = createBillingLinks(config.publicUrl, signer);
    const billing = createBillingService({ db: bench.db, logger, gateway: undefined, priceId: undefined, links, policy: { billingEnabled: false, ...config.entitlements, checkoutUrl: (w) => links.checkout(w) } });
    const app: WebApp = await buildApp({ config, db: bench.db, logger, onboarding: { accounts, billing, signer } });
    const { token } = await accounts.startSession({ workspaceId: ws.id, email: 'owner@example.com' });
    const cookie = `brain_dashboard=${token}`;

    const pages: Record<string, string> = {
      'GET /healthz (reference: one trivial query)': '/healthz',
      'overview, 30 days': '/dashboard',
      'overview, 90 days': '/dashboard?days=90',
      'questions': '/dashboard/questions',
      'questions, unanswered': '/dashboard/questions?filter=unanswered',
      'one question': `/dashboard/questions/${ws.questionIds[ws.questionIds.length - 1]}`,
      'sources': '/dashboard/sources',
      'settings': '/dashboard/settings',
      'settings with a preview': '/dashboard/settings?match_count=3&min_similarity=0.5',
    };
    const timings = new Map<string, number[]>(Object.keys(pages).map((name) => [name, []]));
    const visit = async (name: string) => {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: pages[name] as string, headers: { cookie } });
      const elapsed = performance.now() - started;
      if (res.statusCode !== 200) throw new Error(`${pages[name]} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      return elapsed;
    };
    for (const name of Object.keys(pages)) for (let i = 0; i < 3; i++) await visit(name);
    for (let r = 0; r < rounds; r++) {
      // Pages take turns in a shuffled order each round, so drift (other load, GC) spreads evenly.
      const order = Object.keys(pages).sort(() => Math.random() - 0.5);
      for (const name of order) timings.get(name)?.push(await visit(name));
    }
    await app.close();

    const results = [...timings].map(([name, xs]) => ({ page: name, url: pages[name], medianMs: round(percentile(xs, 50)), p95Ms: round(percentile(xs, 95)), maxMs: round(Math.max(...xs)) }));
    const reference = results[0];
    const pagesOnly = results.slice(1);
    const worst = Math.max(...pagesOnly.map((r) => r.medianMs));
    const result = {
      benchmark: 'dashboard',
      date: new Date().toISOString(),
      engine: bench.engine,
      machine: { cpus: os.cpus().length, loadavg: os.loadavg().map((l) => round(l)) },
      questionsInWorkspace: questionCount,
      questionsInOtherWorkspace: questionCount,
      sourcesPerWorkspace: sourceCount,
      rounds,
      budgetMs: BUDGET_MS,
      seedSeconds: round(seedSeconds),
      reference,
      pages: pagesOnly,
      slowestMedianMs: worst,
      withinBudget: pagesOnly.every((r) => r.medianMs < BUDGET_MS),
      command: `npm run bench dashboard -- --questions ${questionCount} --sources ${sourceCount} --rounds ${rounds}` + (adminUrl ? ' (with BENCH_DATABASE_URL set)' : ''),
    };
    const engineTag = adminUrl ? 'postgres' : 'pglite';
    const stamp = result.date.replace(/[:.]/g, '-');
    fs.mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
    fs.writeFileSync(new URL(`../results/dashboard-${engineTag}-${stamp}.json`, import.meta.url), JSON.stringify(result, null, 2) + '\n');
    fs.writeFileSync(new URL(`../results/dashboard-${engineTag}-latest.json`, import.meta.url), JSON.stringify(result, null, 2) + '\n');

    console.log(`Dashboard pages on ${bench.engine}; ${questionCount} questions in the workspace (+${questionCount} in another), ${sourceCount} sources each; ${rounds} rounds; ${os.cpus().length} cores, load ${result.machine.loadavg.join(' ')}`);
    console.log(`${'page'.padEnd(46)} ${'median'.padStart(9)} ${'p95'.padStart(9)}`);
    for (const r of results) console.log(`${r.page.padEnd(46)} ${`${r.medianMs} ms`.padStart(9)} ${`${r.p95Ms} ms`.padStart(9)}`);
    console.log(`slowest page median ${worst} ms (budget ${BUDGET_MS} ms): ${result.withinBudget ? 'within budget' : 'OVER BUDGET'}`);
    console.log(`reproduce: ${result.command}`);
    if (!result.withinBudget) process.exitCode = 1;
  } finally {
    await bench.close();
  }
}

const round = (x: number) => Math.round(x * 10) / 10;

await main();
