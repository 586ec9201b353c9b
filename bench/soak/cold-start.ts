// npm run bench:cold-ack -- [--seconds 10] [--rate 20] [--cpu-prof DIR] [--database-url postgres://…]
// A freshly started web instance's first acknowledgements, as the soak's restart sees them: one
// `brain start --no-worker` on a new PostgreSQL database with ten workspaces, and, the moment it
// reports ready, signed /ask and /save at an open-loop rate, straight to it (no proxy). Prints the
// ack latency per second from start and the slowest acks; --cpu-prof DIR writes the instance's CPU
// profile there. Writes bench/results/cold-ack-<time>.json.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { migrate, openPostgres, withService } from '@brain/db';
import { generateDevKeyPair } from '@brain/discord';
import { freeLoopbackPort, guildSlashCommand } from '@brain/testkit';
import postgres from 'postgres';
import { postSignedInteraction, signInteraction } from '../signed-interaction.ts';
import { SOAK_APPLICATION_ID } from './driver.ts';
import { killAll, launch, stop } from './launcher.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const seconds = Number(arg('seconds', '10'));
const rate = Number(arg('rate', '20'));
const cpuProf = arg('cpu-prof', '');
const databaseUrl = arg('database-url', process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '');
if (!databaseUrl) {
  console.error('cold-ack: needs PostgreSQL. Start one with `eval "$(bash .ci/start-postgres.sh)"` (sets TEST_DATABASE_URL), or pass --database-url postgres://…');
  process.exit(2);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);
};

async function main(): Promise<void> {
  const runId = randomBytes(4).toString('hex');
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), `brain-cold-${runId}-`));
  const dbName = `brain_cold_${runId}`;
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${dbName}`;
  const db = openPostgres({ url: url.toString(), display: dbName, prepare: true, maxConnections: 2 });
  try {
    await migrate(db);
    const guilds = Array.from({ length: 10 }, (_, i) => `72000000000000${String(i).padStart(4, '0')}`);
    for (const [i, guildId] of guilds.entries()) {
      await withService(db, (tx) =>
        tx.query("insert into workspaces (slug, name, guild_id, claim_email, claimed_at) values ($1, $1, $2, $3, now())", [`ws${i}`, guildId, `ws${i}@example.com`]),
      );
    }
    const keys = generateDevKeyPair();
    const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    const fakes = await launch('fakes', process.execPath, ['--import', 'tsx', 'bench/soak/fakes.ts'], { cwd: root, env: baseEnv, ready: /"port":(\d+)/, logFile: path.join(logDir, 'fakes.log') });
    const fakesPort = Number(fakes.match[1]);
    const port = await freeLoopbackPort();
    const nodeFlags = cpuProf ? [`--cpu-prof`, `--cpu-prof-dir=${path.resolve(cpuProf)}`] : [];
    const launchedAt = performance.now();
    const web = await launch('web', process.execPath, [...nodeFlags, 'apps/cli/bin/brain.js', 'start', '--no-worker', '--port', String(port)], {
      cwd: root,
      env: {
        ...baseEnv,
        DATABASE_URL: url.toString(),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DISCORD_PUBLIC_KEY: keys.publicKeyHex,
        DISCORD_APPLICATION_ID: SOAK_APPLICATION_ID,
        DISCORD_API_BASE: `http://127.0.0.1:${fakesPort}/api`,
        BRAIN_PLAYGROUND: 'off',
        BRAIN_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
        BRAIN_SAVES_PER_MEMBER: '1000000',
        BRAIN_SAVES_PER_WORKSPACE: '1000000',
        BRAIN_METRICS_TOKEN: randomBytes(24).toString('hex'),
        LOG_LEVEL: 'warn',
      },
      ready: /health:\s+(\S+)\/healthz/,
      logFile: path.join(logDir, 'web.log'),
    });
    const readyMs = performance.now() - launchedAt;

    const target = new URL(`http://127.0.0.1:${port}/interactions`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
    const total = Math.round(seconds * rate);
    const acks: { at: number; ms: number; kind: string; status: number }[] = [];
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      let sent = 0;
      let done = 0;
      const send = (n: number) => {
        const kind = n % 4 === 3 ? 'save' : 'ask';
        const options =
          kind === 'ask' ? [{ name: 'question', value: 'Who owns key rotation?' }] : [{ name: 'url', value: `http://127.0.0.1:${fakesPort}/site/fast/cold-${n}` }];
        const body = JSON.stringify({ ...guildSlashCommand({ applicationId: SOAK_APPLICATION_ID, guildId: guilds[n % guilds.length] as string, name: kind, options, sequence: n, tokenPrefix: 'cold' }), token: `cold${kind}x${n}` });
        const dueAt = t0 + (n * 1000) / rate;
        const record = (status: number) => {
          acks.push({ at: Math.round(dueAt - t0), ms: performance.now() - dueAt, kind, status });
          if (++done === total) resolve();
        };
        postSignedInteraction(target, signInteraction(keys, body), { agent, timeoutMs: 30_000 }).then(({ status }) => record(status), () => record(0));
      };
      const tick = () => {
        while (sent < total && t0 + (sent * 1000) / rate <= performance.now()) send(sent++);
        if (sent < total) setTimeout(tick, Math.max(0, t0 + (sent * 1000) / rate - performance.now()));
      };
      tick();
    });
    agent.destroy();
    await stop(web, 30_000);
    await stop(fakes, 5_000);

    const perSecond = Array.from({ length: Math.ceil(seconds) }, (_, s) => {
      const inSecond = acks.filter((a) => a.at >= s * 1000 && a.at < (s + 1) * 1000).map((a) => a.ms);
      return { second: s, acks: inSecond.length, p50: Math.round(percentile(inSecond, 50)), p99: Math.round(percentile(inSecond, 99)), max: Math.round(Math.max(0, ...inSecond)) };
    });
    const report = {
      benchmark: 'cold-ack',
      measuredAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100) },
      method: `one \`brain start --no-worker\` (PostgreSQL), open loop from the moment it printed its health line: ${rate}/s for ${seconds} s, 3 /ask to 1 /save, straight to the instance`,
      readyMs: Math.round(readyMs),
      errors: acks.filter((a) => a.status !== 200).length,
      p99: Math.round(percentile(acks.map((a) => a.ms), 99)),
      perSecond,
      slowest: [...acks].sort((a, b) => b.ms - a.ms).slice(0, 10).map((a) => ({ atMs: a.at, ms: Math.round(a.ms), kind: a.kind })),
    };
    const file = path.join(root, 'bench/results', `cold-ack-${report.measuredAt.replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`ready after ${report.readyMs} ms; ${acks.length} acks, ${report.errors} errors, p99 ${report.p99} ms`);
    console.log('| second | acks | p50 | p99 | max |\n| --- | --- | --- | --- | --- |');
    for (const s of perSecond) console.log(`| ${s.second} | ${s.acks} | ${s.p50} | ${s.p99} | ${s.max} |`);
    console.log(`slowest (ms after start: ms): ${report.slowest.map((a) => `${a.atMs}: ${a.ms} ${a.kind}`).join(', ')}`);
    console.log(`load average ${report.machine.loadAverage.join(', ')}; logs ${logDir}\nWrote ${path.relative(root, file)}`);
  } finally {
    killAll();
    await db.close();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
    await admin.end({ timeout: 5 });
  }
}

await main();
