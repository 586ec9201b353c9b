import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePostgres, enableAppLogin } from '@brain/db/testing';
import { createLogger } from '@brain/observability';
import { closedLoopbackUrl, startFakeDiscordHistory, startFakeHttpServer, startFakeOpenAI, type FakeDiscordHistory, type FakeHttpServer, type FakeOpenAI } from '@brain/testkit';
import { runDoctor, type DoctorReport } from '../src/doctor/run-doctor.ts';
import { runCli } from './run-cli.ts';

const logger = createLogger({ level: 'silent' });
const GOOD_KEY = 'a'.repeat(64);

function check(report: DoctorReport, id: string) {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
}

describe('brain doctor on the embedded database', () => {
  let dataDir: string;
  let site: FakeHttpServer;
  let discord: FakeDiscordHistory;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-doctor-'));
    site = await startFakeHttpServer('public-url');
    site.on('GET', '/healthz', () => ({ body: { status: 'ok' } }));
    discord = await startFakeDiscordHistory({ botToken: 'good-bot-token' });
  });
  afterAll(async () => {
    await site.close();
    await discord.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('passes every check of a good configuration', async () => {
    const env = {
      BRAIN_DATA_DIR: dataDir,
      PUBLIC_URL: site.url,
      DISCORD_PUBLIC_KEY: GOOD_KEY,
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_PRICE_ID: 'price_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_123',
      BRAIN_COOKIE_SECRET: 'c'.repeat(32),
      DISCORD_BOT_TOKEN: 'good-bot-token',
      DISCORD_API_BASE: discord.apiBase,
    };
    const report = await runDoctor({ env, cwd: dataDir, logger });
    // The embedded database's one user is a superuser: that check does not apply, and says so.
    expect(check(report, 'row-level-security')).toMatchObject({ status: 'skip', detail: expect.stringContaining('not applicable') });
    // Nothing is synced in a new installation: nothing to read yet.
    expect(check(report, 'discord-synced-channels')).toMatchObject({ status: 'skip', detail: expect.stringContaining('no channel is synced yet') });
    expect(report.checks.filter((c) => c.status !== 'pass' && c.id !== 'row-level-security' && c.id !== 'discord-synced-channels')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(check(report, 'embedding-dimension').detail).toContain('1536 dimensions');
    expect(check(report, 'migrations').detail).toMatch(/^all \d+ applied/);
    expect(site.requests.map((r) => r.path)).toEqual(['/healthz']);
  });

  it('fails a malformed Discord key, a missing webhook secret and an unreachable public URL, each with its next step', async () => {
    const closed = await closedLoopbackUrl();
    const env = { BRAIN_DATA_DIR: dataDir, PUBLIC_URL: closed, DISCORD_PUBLIC_KEY: 'not-a-key', STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_PRICE_ID: 'price_123' };
    const report = await runDoctor({ env, cwd: dataDir, logger, timeoutMs: 2_000 });
    expect(report.ok).toBe(false);

    const key = check(report, 'discord-public-key');
    expect(key.status).toBe('fail');
    expect(key.detail).toContain('64 hex characters');
    expect(key.nextStep).toContain('General Information');

    const stripe = check(report, 'stripe-webhook-secret');
    expect(stripe.status).toBe('fail');
    expect(stripe.nextStep).toContain(`${closed}/stripe/webhook`);

    const url = check(report, 'public-url');
    expect(url.status).toBe('fail');
    expect(url.detail).toContain('ECONNREFUSED');
    expect(url.nextStep).toContain('brain start');

    // The refused values do not hide the rest: the database checks still ran, and passed.
    expect(check(report, 'database').status).toBe('pass');
    expect(check(report, 'migrations').status).toBe('pass');
    expect(check(report, 'configuration').status).toBe('pass');
  });

  it('fails an embedding model whose vectors are not 1536-dimensional', async () => {
    const openai: FakeOpenAI = await startFakeOpenAI({ modelDimensions: { 'text-embedding-3-large': 3072 } });
    try {
      const env = { BRAIN_DATA_DIR: dataDir, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${openai.url}/v1`, EMBEDDING_MODEL: 'text-embedding-3-large' };
      const report = await runDoctor({ env, cwd: dataDir, logger, timeoutMs: 5_000 });
      const dims = check(report, 'embedding-dimension');
      expect(dims.status).toBe('fail');
      expect(dims.nextStep).toContain('EMBEDDING_MODEL');
      expect(report.ok).toBe(false);
    } finally {
      await openai.close();
    }
  });
});

describePostgres('brain doctor on PostgreSQL', (suite) => {
  it('passes the database, pgvector and migration checks on a migrated database', async () => {
    const report = await runDoctor({ env: { DATABASE_URL: suite.url }, cwd: process.cwd(), logger });
    for (const id of ['configuration', 'database', 'pgvector', 'migrations', 'embedding-dimension', 'embedding-model']) {
      expect(check(report, id).status, `${id}: ${check(report, id).detail}`).toBe('pass');
    }
    // PUBLIC_URL is required in PostgreSQL mode: Discord and Stripe must reach the service.
    expect(check(report, 'public-url').status).toBe('fail');
  });

  it('warns when the connecting role bypasses Row Level Security, and names brain_app', async () => {
    const report = await runDoctor({ env: { DATABASE_URL: suite.url }, cwd: process.cwd(), logger });
    const rls = check(report, 'row-level-security');
    expect(rls.status).toBe('warn');
    expect(rls.detail).toMatch(/^connected as \S+, which (is a superuser|has BYPASSRLS): Row Level Security does not bind this connection/);
    expect(rls.nextStep).toContain('alter role brain_app with login');
  });

  it("passes that check, and the migration check, connected as brain_app", async () => {
    const login = await enableAppLogin(suite.url as string);
    try {
      const report = await runDoctor({ env: { DATABASE_URL: login.url }, cwd: process.cwd(), logger });
      expect(check(report, 'row-level-security')).toMatchObject({ status: 'pass', detail: expect.stringContaining('connected as brain_app') });
      expect(check(report, 'migrations').status, check(report, 'migrations').detail).toBe('pass');
      expect(check(report, 'embedding-model').status, check(report, 'embedding-model').detail).toBe('pass');
    } finally {
      await login.release();
    }
  });
});

describe('brain doctor, the command', () => {
  it('exits non-zero and prints JSON naming the unreachable database and what to do', async () => {
    const closed = await closedLoopbackUrl();
    const result = await runCli(['doctor', '--json', '--timeout', '2000'], { DATABASE_URL: `${closed.replace('http', 'postgres')}/brain`, PUBLIC_URL: closed });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.ok).toBe(false);
    const db = check(report, 'database');
    expect(db.status).toBe('fail');
    expect(db.nextStep).toBeTruthy();
    expect(check(report, 'migrations').status).toBe('skip');
  });
});
