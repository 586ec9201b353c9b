import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedLoopbackUrl } from '@brain/testkit';
import { runCli } from './run-cli.ts';

describe('brain start refuses a bad configuration at once, naming it', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-startup-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('lists every invalid variable with what a valid value looks like, and exits 1 before opening anything', async () => {
    const result = await runCli(['start'], {
      BRAIN_DATA_DIR: dataDir,
      DISCORD_PUBLIC_KEY: 'not-a-key',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PRICE_ID: 'price_1',
      PORT: '99999',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('next: Fix the variables above');
    expect(result.stderr).toContain('DISCORD_PUBLIC_KEY');
    expect(result.stderr).toContain('PORT');
    expect(result.stdout).not.toContain('is running');
    // Nothing was created: the configuration is checked before the database is opened.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('says which database it could not reach and what to check, without echoing the password', async () => {
    const closed = await closedLoopbackUrl();
    const result = await runCli(['start', '--no-worker'], { DATABASE_URL: `${closed.replace('http://', 'postgres://brain:hunter2@')}/brain`, BRAIN_METRICS_TOKEN: 'm'.repeat(24) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Cannot connect to PostgreSQL at 127\.0\.0\.1:\d+\/brain/);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('refuses PostgreSQL mode without BRAIN_METRICS_TOKEN, by name, before connecting: /metrics would be open to the network', async () => {
    const closed = await closedLoopbackUrl();
    const result = await runCli(['start', '--no-worker'], { DATABASE_URL: `${closed.replace('http://', 'postgres://brain:hunter2@')}/brain` });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('BRAIN_METRICS_TOKEN: required in PostgreSQL mode');
    expect(result.stderr).not.toContain('Cannot connect');
  });
});
