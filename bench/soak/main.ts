// npm run soak -- [--minutes 2] [--database-url postgres://…] [--no-flood]
// Two web instances and two workers, as separate processes, behind a round-robin proxy on
// loopback, on one PostgreSQL database. Ten workspaces send signed /ask and /save (fast, slow,
// failing pages and PDFs from a local fake site) and one workspace floods saves; Discord's REST is
// a local fake that records every edit. Halfway, one worker gets kill -9 and one web instance
// SIGTERM; both are restarted. Then the load stops, the queue settles, and the invariants are
// checked: every acknowledged deferral edited, no lost job, no duplicate passage, every save with
// an end state. Writes bench/results/soak-<time>.json; exits 1 when an invariant broke.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, openPostgres, withService, type Database } from '@brain/db';
import { generateDevKeyPair } from '@brain/discord';
import { freeLoopbackPort } from '@brain/testkit';
import postgres from 'postgres';
import { drive, plannedCount, SOAK_APPLICATION_ID, type DriverPlan, type Workspace } from './driver.ts';
import { isFinalSaveEdit, summarize, type Ack, type ArtifactRow, type TokenEdits } from './invariants.ts';
import { crash, killAll, launch, stop, type Launched } from './launcher.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const minutes = Number(arg('minutes', '2'));
const databaseUrl = arg('database-url', process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '');
const flood = !process.argv.includes('--no-flood');
const keep = process.argv.includes('--keep');
const settleSeconds = Number(arg('settle-seconds', '240'));
const askRate = Number(arg('ask-rate', '0.5'));
const saveEvery = Number(arg('save-every', '12'));
const floodSaveRate = Number(arg('flood-save-rate', '1'));
const floodAskRate = Number(arg('flood-ask-rate', '2'));

if (!databaseUrl) {
  console.error('soak: needs PostgreSQL. Start one with `eval "$(bash .ci/start-postgres.sh)"` (sets TEST_DATABASE_URL), or pass --database-url postgres://…');
  process.exit(2);
}
if (!(minutes > 0 && minutes <= 120)) {
  console.error('soak: --minutes must be between 0 and 120');
  process.exit(2);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (since: number) => Date.now() - since;

async function main(): Promise<number> {
  const runId = randomBytes(4).toString('hex');
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), `brain-soak-${runId}-`));
  const dbName = `brain_soak_${runId}`;
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${dbName}`;
  const appDatabaseUrl = url.toString();
  let db: Database | undefined = openPostgres({ url: appDatabaseUrl, display: dbName, prepare: true, maxConnections: 4 });
  try {
    await migrate(db);
    const workspaces: Workspace[] = Array.from({ length: 10 }, (_, i) => ({ guildId: `71000000000000${String(i).padStart(4, '0')}`, name: `ws${i}`, flood: false }));
    if (flood) workspaces.push({ guildId: '7100000000000099', name: 'flood', flood: true });
    const ids = new Map<string, string>();
    for (const ws of workspaces) {
      const [row] = await withService(db, (tx) =>
        tx.query<{ id: string }>("insert into workspaces (slug, name, guild_id, claim_email, claimed_at) values ($1, $1, $2, $3, now()) returning id", [ws.name, ws.guildId, `${ws.name}@example.com`]),
      );
      ids.set(ws.name, (row as { id: string }).id);
    }

    const keys = generateDevKeyPair();
    const node = process.execPath;
    const nodeArgs = (script: string, ...rest: string[]) => ['--import', 'tsx', script, ...rest];
    const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    const fakes = await launch('fakes', node, nodeArgs('bench/soak/fakes.ts'), { cwd: root, env: baseEnv, ready: /"port":(\d+)/, logFile: path.join(logDir, 'fakes.log') });
    const fakesPort = Number(fakes.match[1]);
    const webPorts = [await freeLoopbackPort(), await freeLoopbackPort()];
    const proxy = await launch('proxy', node, nodeArgs('bench/soak/proxy.ts', webPorts.join(',')), { cwd: root, env: baseEnv, ready: /"port":(\d+)/, logFile: path.join(logDir, 'proxy.log') });
    const proxyUrl = `http://127.0.0.1:${proxy.match[1]}`;
    const appEnv = {
      ...baseEnv,
      DATABASE_URL: appDatabaseUrl,
      HOST: '127.0.0.1',
      PUBLIC_URL: proxyUrl,
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      DISCORD_APPLICATION_ID: SOAK_APPLICATION_ID,
      DISCORD_API_BASE: `http://127.0.0.1:${fakesPort}/api`,
      BRAIN_PLAYGROUND: 'off',
      BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      BRAIN_METRICS_TOKEN: randomBytes(24).toString('hex'),
      // The soak measures faults and fairness, not the per-member save limits.
      BRAIN_SAVES_PER_MEMBER: '1000000',
      BRAIN_SAVES_PER_WORKSPACE: '1000000',
      // A killed worker's jobs come back after their lease: short, so the soak sees it happen.
      BRAIN_JOB_LEASE_SECONDS: '15',
      BRAIN_SHUTDOWN_GRACE_SECONDS: '10',
      LOG_LEVEL: 'warn',
    };
    let restarts = 0;
    let heldByKilled: string[] = [];
    // Every job the killed worker held, long or not: a short one it had just claimed waits out the lease too.
    let orphanedByKill: string[] = [];
    const startWeb = (i: number) =>
      launch(`web-${i + 1}`, node, ['apps/cli/bin/brain.js', 'start', '--no-worker', '--port', String(webPorts[i])], {
        cwd: root,
        env: appEnv,
        ready: /health:\s+(\S+)\/healthz/,
        logFile: path.join(logDir, `web-${i + 1}.log`),
      });
    const startWorker = async (i: number) =>
      launch(`worker-${i + 1}`, node, ['apps/cli/bin/brain.js', 'worker'], {
        cwd: root,
        env: { ...appEnv, BRAIN_METRICS_PORT: String(await freeLoopbackPort()) },
        ready: /Worker metrics: (\S+)\/metrics/,
        logFile: path.join(logDir, `worker-${i + 1}.log`),
      });
    const webs: Launched[] = [await startWeb(0), await startWeb(1)];
    const workers: Launched[] = [await startWorker(0), await startWorker(1)];
    process.stderr.write(`soak: ${workspaces.length} workspaces, 2 web instances, 2 workers, proxy ${proxyUrl}; logs in ${logDir}\n`);

    const plan: DriverPlan = { workspaces, seconds: minutes * 60, askRate, saveEverySeconds: saveEvery, floodSaveRate, floodAskRate, sitePort: fakesPort };
    const faults: { at: number; what: string; ms?: number; exitCode?: number | null }[] = [];
    const startedAt = Date.now();
    const faultTimer = setTimeout(() => {
      void (async () => {
        const victim = workers[0] as Launched;
        // Its worker id is host:pid:random. The kill waits (30 s at most) for it to hold a job, so
        // the fault tests what it should: work a dead worker held must come back, once.
        const held = async () =>
          (
            await withService(db as Database, (tx) =>
              tx.query<{ id: string }>("select id from jobs where status = 'running' and locked_by like $1", [`%:${victim.child.pid}:%`]),
            )
          ).map((r) => r.id);
        // A job seen twice half a second apart is a long one (a slow page): a fast one would finish
        // before the kill lands, and the fault would test nothing.
        let longJobs: string[] = [];
        for (const until = Date.now() + 30_000; Date.now() < until && longJobs.length === 0; ) {
          const first = await held();
          await sleep(500);
          const second = new Set(await held());
          longJobs = first.filter((id) => second.has(id));
        }
        const t = Date.now();
        await crash(victim);
        // Still running on the dead worker's lease: orphaned, for the live workers to take back.
        const orphaned = new Set(await held());
        orphanedByKill = [...orphaned];
        heldByKilled = longJobs.filter((id) => orphaned.has(id));
        faults.push({ at: t - startedAt, what: `kill -9 worker-1 (holding ${heldByKilled.length} jobs)` });
        const t2 = Date.now();
        const code = await stop(webs[0] as Launched, 60_000);
        faults.push({ at: t2 - startedAt, what: 'SIGTERM web-1 (drained and exited)', ms: ms(t2), exitCode: code });
        const t3 = Date.now();
        workers[0] = await startWorker(0);
        webs[0] = await startWeb(0);
        restarts += 2;
        faults.push({ at: t3 - startedAt, what: 'restarted worker-1 and web-1', ms: ms(t3) });
        process.stderr.write(`soak: faults injected at ${Math.round((t - startedAt) / 1000)} s, both restarted in ${Math.round(ms(t3) / 1000)} s\n`);
      })().catch((error: unknown) => faults.push({ at: Date.now() - startedAt, what: `fault injection failed: ${String(error)}` }));
    }, (minutes * 60_000) / 2);

    process.stderr.write(`soak: sending ${plannedCount(plan)} interactions over ${minutes} min\n`);
    const acks = await drive(`${proxyUrl}/interactions`, plan, keys, startedAt);
    clearTimeout(faultTimer);
    const loadEndedAt = Date.now();
    process.stderr.write(`soak: load done (${acks.length} acknowledgements); settling for up to ${settleSeconds} s\n`);

    const getEdits = async () => (await (await fetch(`http://127.0.0.1:${fakesPort}/edits`)).json()) as Record<string, TokenEdits>;
    const wsIds = [...ids.values()];
    const nameOf = new Map([...ids.entries()].map(([name, id]) => [id, name]));
    const readArtifacts = async (): Promise<ArtifactRow[]> =>
      (
        await withService(db as Database, (tx) =>
          tx.query<{ workspace_id: string; url: string; status: string; error_code: string | null; indexed_ms: string | null }>(
            'select workspace_id, url, status, error_code, (extract(epoch from indexed_at) * 1000)::bigint::text as indexed_ms from artifacts where workspace_id = any($1::uuid[])',
            [wsIds],
          ),
        )
      ).map((r) => ({ workspace: nameOf.get(r.workspace_id) ?? '?', url: r.url, status: r.status, errorCode: r.error_code, indexedAtMs: r.indexed_ms === null ? null : Number(r.indexed_ms) }));
    const readJobs = async () => {
      const [row] = await withService(db as Database, (tx) =>
        tx.query<{ unfinished: number; expired: number }>(
          "select count(*) filter (where status in ('queued', 'running'))::int as unfinished, count(*) filter (where status = 'running' and lease_expires_at < now())::int as expired from jobs where workspace_id = any($1::uuid[])",
          [wsIds],
        ),
      );
      return { unfinished: row?.unfinished ?? 0, expiredLeases: row?.expired ?? 0 };
    };
    const deferred = acks.filter((a: Ack) => a.outcome === 'deferred');
    let settled = false;
    while (!settled && ms(loadEndedAt) < settleSeconds * 1000) {
      await sleep(2_000);
      const edits = await getEdits();
      const allEdited = deferred.every((a) => (edits[a.token]?.edits ?? 0) > 0 && (a.kind === 'ask' || isFinalSaveEdit(edits[a.token]?.last ?? '')));
      const artifacts = await readArtifacts();
      const jobs = await readJobs();
      settled = allEdited && jobs.unfinished === 0 && artifacts.every((r) => r.status === 'ready' || r.status === 'failed');
    }
    const settleMs = ms(loadEndedAt);

    const edits = await getEdits();
    const artifacts = await readArtifacts();
    const jobs = await readJobs();
    const [dup] = await withService(db, (tx) =>
      tx.query<{ n: number }>(
        'select count(*)::int as n from (select artifact_id, ordinal from chunks where is_live and workspace_id = any($1::uuid[]) group by 1, 2 having count(*) > 1) d',
        [wsIds],
      ),
    );
    const killedJobs = await withService(db, (tx) =>
      tx.query<{ status: string; attempts: number; last_error_code: string | null; n: number }>(
        'select status, attempts, last_error_code, count(*)::int as n from jobs where id = any($1::uuid[]) group by 1, 2, 3 order by 1, 2',
        [heldByKilled],
      ),
    );
    // The slowest saves of each workspace that does not flood, with how their job went: whether
    // the killed worker held it (it then waited out the lease) and how many attempts it took.
    const jobOf = new Map(
      (
        await withService(db, (tx) =>
          tx.query<{ url: string; workspace_id: string; id: string; attempts: number }>(
            "select a.url, a.workspace_id, j.id, j.attempts from jobs j join artifacts a on a.id = j.artifact_id where j.task = 'ingest' and a.workspace_id = any($1::uuid[])",
            [wsIds],
          ),
        )
      ).map((r) => [`${nameOf.get(r.workspace_id) ?? '?'} ${r.url}`, { id: r.id, attempts: r.attempts }]),
    );
    const indexedAt = new Map(artifacts.map((r) => [`${r.workspace} ${r.url}`, r.indexedAtMs]));
    const orphaned = new Set(orphanedByKill);
    const slowestSaves = Object.fromEntries(
      workspaces
        .filter((w) => !w.flood)
        .map((w) => [
          w.name,
          acks
            .filter((a) => a.kind === 'save' && a.workspace === w.name && indexedAt.get(`${w.name} ${a.url}`) != null)
            .map((a) => {
              const job = jobOf.get(`${w.name} ${a.url}`);
              return {
                atSeconds: Math.round((a.dueAt - startedAt) / 100) / 10,
                ms: (indexedAt.get(`${w.name} ${a.url}`) as number) - a.dueAt,
                saveKind: a.saveKind,
                attempts: job?.attempts ?? null,
                heldByKilledWorker: job ? orphaned.has(job.id) : false,
              };
            })
            .sort((a, b) => b.ms - a.ms)
            .slice(0, 3),
        ]),
    );
    const proxyStats = (await (await fetch(`${proxyUrl}/__proxy/stats`)).json()) as Record<string, number>;
    for (const p of [...webs, ...workers]) await stop(p, 30_000);
    await stop(proxy, 5_000);
    await stop(fakes, 5_000);

    const summary = summarize({ startedAt, acks, edits, artifacts, jobs, duplicatePassages: dup?.n ?? 0, floodWorkspace: flood ? 'flood' : null });
    const report = {
      benchmark: 'soak',
      measuredAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100) },
      method: {
        topology: '2 × `brain start --no-worker` and 2 × `brain worker` (separate processes) on one PostgreSQL database, behind a round-robin proxy on loopback that retries a request whose connection failed before any response',
        traffic: `open loop: ${workspaces.filter((w) => !w.flood).length} workspaces × (/ask ${askRate}/s, /save every ${saveEvery} s: fast, slow (4 s), PDF, 404, 503 pages)${flood ? `; one flooding workspace: /save ${floodSaveRate}/s, /ask ${floodAskRate}/s` : '; no flood'}`,
        faults: 'halfway: kill -9 of worker-1 (its whole process group), SIGTERM of web-1 (drains, exits), then both restarted',
        settings: { BRAIN_JOB_LEASE_SECONDS: 15, BRAIN_SHUTDOWN_GRACE_SECONDS: 10, saveLimits: 'raised out of the way' },
        minutes,
        settleSeconds,
      },
      faults,
      restarts,
      // The jobs worker-1 held when it was killed, as they ended.
      killedWorkerJobs: { held: heldByKilled.length, ended: killedJobs, orphaned: orphanedByKill.length },
      slowestSaves,
      settle: { settled, ms: settleMs },
      proxy: proxyStats,
      // Where the slow acknowledgements fell (seconds into the load), to tell a cold start from a fault.
      slowestAcks: [...acks]
        .sort((a, b) => b.latencyMs - a.latencyMs)
        .slice(0, 20)
        .map((a) => ({ atSeconds: Math.round((a.dueAt - startedAt) / 100) / 10, ms: Math.round(a.latencyMs), kind: a.kind, workspace: a.workspace })),
      ...summary,
    };
    const file = path.join(root, 'bench/results', `soak-${report.measuredAt.replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

    console.log('\nAcknowledgement latency per minute (ms, through the proxy, from each request’s due time):\n');
    console.log('| minute | acks | errors | p50 | p99 | max |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const m of summary.ackPerMinute) console.log(`| ${m.minute} | ${m.acks} | ${m.errors} | ${m.p50} | ${m.p99} | ${m.max} |`);
    console.log(`\nFaults: ${faults.map((f) => `${f.what} at ${Math.round(f.at / 1000)} s${f.ms !== undefined ? ` (${Math.round(f.ms / 100) / 10} s)` : ''}`).join('; ')}`);
    console.log(`Slowest acknowledgements (s into the load: ms): ${report.slowestAcks.map((a) => `${a.atSeconds}: ${a.ms}`).join(', ')}`);
    console.log(`Jobs held by the killed worker: ${heldByKilled.length}; ended ${JSON.stringify(killedJobs)}`);
    console.log(`Deferrals: ${summary.deferrals.acknowledged} acknowledged, ${summary.deferrals.edited} edited to their end; ${summary.replied} answered at once; ${summary.ackErrors} acknowledgement errors.`);
    console.log(`Saves: ${summary.saves.acknowledged} acknowledged; end states ${JSON.stringify(summary.saves.endStates)}; ${summary.saves.noEndState.length} with none.`);
    console.log(`Jobs unfinished ${jobs.unfinished}, on an expired lease ${jobs.expiredLeases}; duplicate live passages ${summary.duplicatePassages}. Settled in ${Math.round(settleMs / 1000)} s${settled ? '' : ' (NOT settled: gave up)'}.`);
    console.log(
      `Slowest save per workspace (s into the load, ms, kind, attempts, held by the killed worker): ${Object.entries(slowestSaves)
        .map(([ws, list]) => { const s = list[0]; return s ? `${ws} ${s.atSeconds} s ${s.ms} ${s.saveKind} ×${s.attempts}${s.heldByKilledWorker ? ' KILLED' : ''}` : `${ws} -`; })
        .join('; ')}`,
    );
    console.log('Save-to-searchable p95 (ms), per workspace:', Object.entries(summary.saveToSearchableP95).map(([ws, v]) => `${ws} ${v.p95Ms} (${v.saves})`).join(', '));
    console.log(`Load average: ${report.machine.loadAverage.join(', ')} on ${report.machine.cpus} cores. Logs: ${logDir}`);
    console.log(`\nWrote ${path.relative(root, file)}\nReproduce: npm run soak -- --minutes ${minutes}${flood ? '' : ' --no-flood'} (with TEST_DATABASE_URL from .ci/start-postgres.sh)`);
    if (summary.violations.length > 0) {
      console.log(`\nINVARIANTS BROKEN:\n  - ${summary.violations.join('\n  - ')}`);
      return 1;
    }
    console.log('\nAll invariants held.');
    return 0;
  } finally {
    killAll();
    await db?.close();
    db = undefined;
    if (!keep) await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
    await admin.end({ timeout: 5 });
  }
}

process.exitCode = await main();
