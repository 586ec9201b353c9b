// npm run bench:ack — time to the deferred acknowledgement of signed /ask interactions, at
// increasing rates, for the real app (`brain start`: PGlite, worker, follow-ups) and for a bare
// node:http server that only verifies the signature, with the same open-loop load generator.
// Writes bench/results/ack-<time>.json and prints a table and the command that reproduces it.
// --with-ingest [--ingest-pages 140 --ingest-rate 100]: after the idle steps, saves a local
// documentation site with signed /save url: and measures again while the same server indexes it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@brain/config';
import { migrate, openDatabase, withService } from '@brain/db';
import { generateDevKeyPair } from '@brain/discord';
import { saveSource } from '@brain/ingest';
import { BENCH_APPLICATION_ID } from './interactions.ts';
import { markCpu, otherCores } from './other-load.ts';
import { savePages, sinkSaves, waitForSaves, type SinkSaves } from './with-ingest.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const rates = arg('rates', '100,200,300,400').split(',').map(Number);
const seconds = Number(arg('seconds', '10'));
// --database-url postgres://… (or BENCH_DATABASE_URL): the app on PostgreSQL instead of embedded
// PGlite. The bench writes a workspace and notes into it and deletes them afterwards.
const databaseUrl = arg('database-url', process.env.BENCH_DATABASE_URL ?? '');
const withIngest = process.argv.includes('--with-ingest');
const ingestPages = Number(arg('ingest-pages', '140'));
const ingestRate = Number(arg('ingest-rate', '100'));
const GUILD = '700000000000000002';

const NOTES = [
  ['Deploys', 'We deploy on Tuesdays and Thursdays after the release review. Production deploys need two approvals.'],
  ['Key rotation', 'API keys are rotated every 90 days by the platform team; the rotation runbook lives in the wiki.'],
  ['Code review', 'Every pull request needs one reviewer from the owning team; infrastructure changes need two.'],
  ['On-call', 'The on-call runbook covers paging, escalation to the incident lead, and the status page.'],
  ['Refunds', 'Refunds are issued within 14 days of purchase; after that, support offers account credit.'],
];

interface Step {
  rate: number;
  sent: number;
  ok: number;
  errors: number;
  statusErrors: number;
  achievedRps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Other processes' CPU during the step, in cores (other-load.ts); absent off Linux. */
  otherCores?: number | undefined;
}

function start(command: string, args: string[], env: Record<string, string>, ready: RegExp, logFile?: string, stdoutFile?: string): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(command, args, { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start in 180 s:\n${out}`)), 180_000);
    let started = false;
    const stdoutLog = stdoutFile ? fs.createWriteStream(stdoutFile) : undefined;
    const onData = (d: Buffer) => {
      stdoutLog?.write(d);
      // Once started, output is drained and dropped: keeping it would make this process work too.
      if (started) return;
      out += d.toString();
      const match = ready.exec(out);
      if (match) {
        started = true;
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout?.on('data', onData);
    // The app's warnings and errors (LOG_LEVEL=warn) are kept in a file: a lost edit leaves its reason there.
    const log = logFile ? fs.createWriteStream(logFile) : undefined;
    child.stderr?.on('data', (d: Buffer) => {
      if (!started) out += d.toString();
      log?.write(d);
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`)));
  });
}

// BENCH_TIMINGS_DIR: each step's per-request timings (load-generator.ts) go there, named by step.
const timingsDir = process.env.BENCH_TIMINGS_DIR;
function runLoad(url: string, rate: number, duration: number, privateKeyPem: string, name = ''): Promise<Step> {
  const before = markCpu();
  return new Promise((resolve, reject) => {
    const timings = timingsDir && name ? { BENCH_TIMINGS_FILE: path.join(timingsDir, `${name}.json`) } : {};
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/ack/load-generator.ts', url, String(rate), String(duration), GUILD], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', BENCH_PRIVATE_KEY: privateKeyPem, ...timings },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve({ ...(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Step), otherCores: otherCores(before, markCpu()) }) : reject(new Error(`load generator exited with ${code}`))));
  });
}

async function sinkStats(port: number): Promise<{ edits: number; answers: number; errors: number; other: number; lastErrors: string[] }> {
  return (await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as never;
}

async function main(): Promise<void> {
  const keys = generateDevKeyPair();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-bench-ack-'));
  const children: ChildProcess[] = [];
  const appLog = path.join(os.tmpdir(), `brain-bench-ack-app-${process.pid}.log`);
  let workspaceId: string | null = null;
  try {
    // A claimed workspace for the bench server with a few saved notes, indexed by brain start's worker.
    const dbEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : { BRAIN_DATA_DIR: dataDir };
    const config = loadConfig(dbEnv, { cwd: root });
    const db = await openDatabase(config.database, { command: 'bench:ack' });
    await migrate(db);
    const [ws] = await withService(db, (tx) =>
      tx.query<{ id: string }>("insert into workspaces (slug, guild_id, claim_email, claimed_at) values ('bench', $1, 'bench@example.com', now()) returning id", [GUILD]),
    );
    for (const [title, text] of NOTES) await saveSource(db, { workspaceId: ws?.id as string, input: { kind: 'text', title, text: `# ${title}\n\n${text}` }, savedBy: 'bench' });
    await db.close();
    workspaceId = ws?.id ?? null;

    const sink = await start(process.execPath, ['--import', 'tsx', 'bench/ack/discord-sink.ts'], {}, /"port":(\d+)/);
    const sinkPort = Number(sink.match[1]);
    const bare = await start(process.execPath, ['--import', 'tsx', 'bench/ack/bare-server.ts', keys.publicKeyHex], {}, /"port":(\d+)/);
    children.push(sink.child, bare.child);
    const site = withIngest ? await start(process.execPath, ['--import', 'tsx', 'bench/ack/docs-site.ts', String(ingestPages)], {}, /"port":(\d+)/) : undefined;
    if (site) children.push(site.child);
    // BENCH_APP_NODE_FLAGS (e.g. --cpu-prof, --trace-gc) go to the app's node, for profiling a run;
    // BENCH_APP_STDOUT_FILE keeps its stdout (where --trace-gc writes).
    const appFlags = (process.env.BENCH_APP_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const app = await start(process.execPath, [...appFlags, 'apps/cli/bin/brain.js', 'start', '--port', '0'], {
      ...dbEnv,
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      DISCORD_APPLICATION_ID: BENCH_APPLICATION_ID,
      DISCORD_API_BASE: `http://127.0.0.1:${sinkPort}/api`,
      BRAIN_PLAYGROUND: 'off',
      LOG_LEVEL: 'warn',
      // --with-ingest saves 140 pages as one member: the per-member limit (20 per 10 minutes)
      // would refuse all but 20 of them, and the bench would measure far less indexing.
      BRAIN_SAVES_PER_MEMBER: '100000',
      BRAIN_SAVES_PER_WORKSPACE: '100000',
      // BRAIN_PGLITE_THREAD=off here runs the app's database on its main thread, for comparison.
      ...(process.env.BRAIN_PGLITE_THREAD ? { BRAIN_PGLITE_THREAD: process.env.BRAIN_PGLITE_THREAD } : {}),
      // BRAIN_HELPER_THREAD_PRIORITY=idle puts the app's helper threads under SCHED_IDLE (nice 10 by default).
      ...(process.env.BRAIN_HELPER_THREAD_PRIORITY ? { BRAIN_HELPER_THREAD_PRIORITY: process.env.BRAIN_HELPER_THREAD_PRIORITY } : {}),
      ...(site ? { BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } : {}),
    }, /health:\s+http:\/\/localhost:(\d+)\/healthz/, appLog, process.env.BENCH_APP_STDOUT_FILE);
    children.push(app.child);
    const targets = { bare: `http://127.0.0.1:${bare.match[1]}/interactions`, app: `http://127.0.0.1:${app.match[1]}/interactions` };

    // Warm up both (JIT, connection pools, the workspace cache), then let indexing settle.
    await runLoad(targets.bare, 50, 3, keys.privateKeyPem);
    const warmUp = await runLoad(targets.app, 50, 3, keys.privateKeyPem);
    await new Promise((r) => setTimeout(r, 5_000));

    const results: { rate: number; bare: Step; app: Step; ratioP99: number; followUpsDrainedMs: number }[] = [];
    // Every acknowledged warm-up /ask owes an edit too. Counting the edits that had arrived by now
    // instead let a slow run end with its last warm-up answers still in flight, which read as lost.
    let expected = warmUp.ok;
    for (const rate of rates) {
      const bareStep = await runLoad(targets.bare, rate, seconds, keys.privateKeyPem, `bare-${rate}`);
      const appStep = await runLoad(targets.app, rate, seconds, keys.privateKeyPem, `app-${rate}`);
      // Every acknowledged /ask ends in an edit: wait for them before the next step starts.
      expected += appStep.ok;
      const drainStart = Date.now();
      while ((await sinkStats(sinkPort)).edits < expected && Date.now() - drainStart < 300_000) await new Promise((r) => setTimeout(r, 250));
      results.push({ rate, bare: bareStep, app: appStep, ratioP99: Math.round((appStep.p99 / bareStep.p99) * 100) / 100, followUpsDrainedMs: Date.now() - drainStart });
      process.stderr.write(`rate ${rate}/s: bare p99 ${bareStep.p99} ms, app p99 ${appStep.p99} ms; other processes took ${bareStep.otherCores ?? '?'} and ${appStep.otherCores ?? '?'} cores\n`);
    }

    let ingest: Record<string, unknown> | undefined;
    if (site) {
      const sitePort = Number(site.match[1]);
      const pageUrls = ((await (await fetch(`http://127.0.0.1:${sitePort}/index.json`)).json()) as string[]).map((p) => `http://127.0.0.1:${sitePort}${p}`);
      const savesStartedAt = Date.now();
      const saved = await savePages(targets.app, pageUrls, GUILD, keys);
      const atStart: SinkSaves = await sinkSaves(sinkPort);
      // Both measured in the same window while the server indexes: same machine, same moment.
      const [bareStep, appStep] = await Promise.all([runLoad(targets.bare, ingestRate, seconds, keys.privateKeyPem, 'bare-ingest'), runLoad(targets.app, ingestRate, seconds, keys.privateKeyPem, 'app-ingest')]);
      const atEnd: SinkSaves = await sinkSaves(sinkPort);
      const ended = await waitForSaves(sinkPort, saved.acknowledged, 600_000);
      expected += appStep.ok;
      const drainStart = Date.now();
      while ((await sinkStats(sinkPort)).edits < expected && Date.now() - drainStart < 300_000) await new Promise((r) => setTimeout(r, 250));
      const followUpsDrainedMs = Date.now() - drainStart;
      ingest = {
        followUpsDrainedMs,
        rate: ingestRate,
        pages: pageUrls.length,
        savesAcknowledged: saved.acknowledged,
        savesRefused: saved.refused,
        savesSentInMs: saved.ms,
        // Pages whose indexing had ended when the window opened and closed: the window overlapped indexing.
        savesEndedAtWindowStart: atStart.saved + atStart.failed,
        savesEndedAtWindowEnd: atEnd.saved + atEnd.failed,
        saves: ended,
        // From the first /save sent to the last save's final edit.
        indexingMs: ended.lastFinalAt - savesStartedAt,
        bare: bareStep,
        app: appStep,
        ratioP99: Math.round((appStep.p99 / bareStep.p99) * 100) / 100,
      };
      process.stderr.write(`with ingest, ${ingestRate}/s: bare p99 ${bareStep.p99} ms, app p99 ${appStep.p99} ms; saves ended ${atStart.saved + atStart.failed} → ${atEnd.saved + atEnd.failed} of ${pageUrls.length} during the window\n`);
    }
    const followUps = await sinkStats(sinkPort);

    const report = {
      benchmark: 'ack',
      measuredAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100) },
      method: {
        load: 'open loop, fixed rate, keep-alive, latency from each request’s due time to the end of its response; own child process',
        interaction: 'signed /ask (type 2) in a claimed guild, a new interaction id and token per request',
        app: `brain start (${databaseUrl ? 'PostgreSQL' : `embedded PGlite, BRAIN_PGLITE_THREAD=${process.env.BRAIN_PGLITE_THREAD ?? 'on (default)'}`}, BRAIN_HELPER_THREAD_PRIORITY=${process.env.BRAIN_HELPER_THREAD_PRIORITY ?? 'nice (default)'}, worker, LOG_LEVEL=warn); follow-ups to a local Discord stand-in in its own process`,
        reference: 'bare node:http server: Ed25519 verification of timestamp + body, then {"type":5}',
        appNodeFlags: process.env.BENCH_APP_NODE_FLAGS ?? '',
        ...(withIngest ? { withIngest: `${ingestPages} pages of a local docs site (Markdown from node_modules as HTML) saved by signed /save url:, then bare and app measured at the same time, ${ingestRate} req/s each, while brain start indexes them` } : {}),
        secondsPerStep: seconds,
      },
      followUps,
      results,
      ...(ingest ? { withIngest: ingest } : {}),
    };
    const file = path.join(root, 'bench/results', `ack-${report.measuredAt.replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

    console.log('\nTime to the deferred acknowledgement (ms), same load generator, same rate:\n');
    console.log('| rate (req/s) | bare p50 | bare p99 | app p50 | app p99 | app p99 ÷ bare p99 | app errors | other processes, cores (bare step / app step) |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of results) {
      console.log(`| ${r.rate} | ${r.bare.p50} | ${r.bare.p99} | ${r.app.p50} | ${r.app.p99} | ${r.ratioP99} | ${r.app.errors + r.app.statusErrors} | ${r.bare.otherCores ?? '?'} / ${r.app.otherCores ?? '?'} |`);
    }
    if (ingest) {
      const b = ingest.bare as Step;
      const a = ingest.app as Step;
      console.log(`| ${ingestRate}, while indexing ${ingestPages} saved pages | ${b.p50} | ${b.p99} | ${a.p50} | ${a.p99} | ${String(ingest.ratioP99)} | ${a.errors + a.statusErrors} | ${a.otherCores ?? '?'} (same window) |`);
      const s = ingest.saves as SinkSaves;
      console.log(`\nSaves: ${String(ingest.savesAcknowledged)} acknowledged, ${s.saved} saved, ${s.failed} failed, ${s.stillIndexing} still indexing at their reply's end, ${s.other} other${s.examples.length > 0 ? ` (e.g. ${s.examples[0]})` : ''}; ended ${String(ingest.savesEndedAtWindowStart)} → ${String(ingest.savesEndedAtWindowEnd)} during the measured window; indexing took ${Math.round(Number(ingest.indexingMs) / 100) / 10} s.`);
    }
    console.log(`\nFollow-up edits received: ${followUps.edits} (answers ${followUps.answers}, error notices ${followUps.errors}, other ${followUps.other}).`);
    if (followUps.lastErrors.length > 0) console.log(`Error notices, e.g.: ${followUps.lastErrors.join(' | ')}`);
    console.log(`The app's warnings and errors: ${appLog}`);
    console.log(`Load average during the run: ${report.machine.loadAverage.join(', ')} on ${report.machine.cpus} cores.`);
    console.log(`\nWrote ${path.relative(root, file)}\nReproduce: npm run bench:ack -- --rates ${rates.join(',')} --seconds ${seconds}${withIngest ? ` --with-ingest --ingest-pages ${ingestPages} --ingest-rate ${ingestRate}` : ''}${databaseUrl ? ' --database-url postgres://…' : ''}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    if (databaseUrl && workspaceId) {
      const db = await openDatabase(loadConfig({ DATABASE_URL: databaseUrl }, { cwd: root }).database, { command: 'bench:ack' });
      await withService(db, (tx) => tx.query('delete from workspaces where id = $1', [workspaceId]));
      await db.close();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
