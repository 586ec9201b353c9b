import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMigrations, openPostgres } from '@brain/db';
import { describePostgres } from '@brain/db/testing';
import { waitUntil } from '@brain/testkit';
import { runCli } from './run-cli.ts';

const migrationCount = loadMigrations().length;

describe('brain migrate (embedded)', () => {
  // A cold first run (initdb and every migration in wasm) takes about 9 CPU s, and CI runs it beside
  // two other suites: it took over 60 s there once. The subject is what it writes, not its speed.
  it('creates $BRAIN_DATA_DIR/pgdata with the schema, and a second run changes nothing', { timeout: 300_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-cli-'));
    const first = await runCli(['migrate', '--json'], { BRAIN_DATA_DIR: dataDir }, 240_000);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ database: path.join(dataDir, 'pgdata'), alreadyApplied: [] });
    expect(JSON.parse(first.stdout).applied).toHaveLength(migrationCount);
    expect(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'brain.lock'))).toBe(false);

    const second = await runCli(['migrate'], { BRAIN_DATA_DIR: dataDir });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`is up to date (${migrationCount} migrations applied earlier)`);
  });
});

describe('brain migrate (bad configuration)', () => {
  it('explains a malformed DATABASE_URL without a stack trace and without echoing the password', async () => {
    const result = await runCli(['migrate'], { DATABASE_URL: 'postgress://admin:hunter2@db.example.com/app' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: DATABASE_URL is malformed: its scheme is "postgress"');
    expect(result.stderr).toContain('next: Set it to postgres://USER:PASSWORD@HOST:5432/DATABASE');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('explains an unreachable server', async () => {
    const result = await runCli(['migrate'], { DATABASE_URL: 'postgres://brain:hunter2@127.0.0.1:9/brain' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: Cannot connect to PostgreSQL at 127.0.0.1:9/brain: nothing accepted the connection.');
    expect(result.stderr).toContain('next: Check that PostgreSQL is running');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('names every invalid variable', async () => {
    const result = await runCli(['migrate'], { PORT: 'http', DISCORD_PUBLIC_KEY: 'nope' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT: must be a port number');
    expect(result.stderr).toContain('DISCORD_PUBLIC_KEY: must be the 64-character hex public key');
  });
});

describePostgres(
  'brain migrate with DATABASE_URL',
  (suite) => {
    it('migrates a fresh PostgreSQL database, then finds nothing to do', async () => {
      const env = { DATABASE_URL: suite.url as string };
      const first = await runCli(['migrate', '--json'], env);
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout).applied).toHaveLength(migrationCount);
      const second = await runCli(['migrate', '--json'], env);
      expect(JSON.parse(second.stdout).applied).toEqual([]);
    });
  },
  { empty: true },
);

describePostgres(
  'brain migrate with BRAIN_MIGRATE_DATABASE_URL',
  (suite) => {
    it('migrates through the owner URL, not the services\' DATABASE_URL, and names the database it migrated', async () => {
      // The services' URL leads nowhere: only the migration URL can have done the work.
      const env = { DATABASE_URL: 'postgres://brain_app:app-secret@127.0.0.1:9/brain', BRAIN_MIGRATE_DATABASE_URL: suite.url as string };
      const first = await runCli(['migrate', '--json'], env);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const out = JSON.parse(first.stdout);
      expect(out.applied).toHaveLength(migrationCount);
      expect(out.database).toBe(new URL(suite.url as string).host + new URL(suite.url as string).pathname);
      expect(first.stdout).not.toContain('app-secret');
      const [row] = await suite.db.query<{ n: number }>('select count(*)::int as n from brain_meta.schema_migrations');
      expect(row?.n).toBe(migrationCount);
    });
  },
  { empty: true },
);

describePostgres(
  'brain migrate losing its connection',
  (suite) => {
    it('exits with the error that names the step and says what to do, not with the driver\'s TypeError', async () => {
      // Holding the migrator's lock keeps `brain migrate` waiting inside its first transaction,
      // where its backend is then terminated, as a crashed backend's restart would.
      const holder = openPostgres({ url: suite.url as string, display: 'lock holder', prepare: true, maxConnections: 1 });
      try {
        await holder.query('select pg_advisory_lock(7246001)');
        const running = runCli(['migrate'], { DATABASE_URL: suite.url as string });
        await waitUntil(
          async () => {
            const rows = await holder.query<{ ok: boolean }>(`
              select pg_terminate_backend(pid) as ok from pg_stat_activity
              where datname = current_database() and application_name = 'company-brain:brain migrate' and wait_event_type = 'Lock'`);
            return rows.some((r) => r.ok === true);
          },
          { timeoutMs: 30_000, intervalMs: 50, what: '`brain migrate` to wait on the lock, to kill its backend' },
        );
        const result = await running;
        expect(result.stderr).not.toContain('TypeError');
        expect(result.stderr).toContain('error: The connection to the database was lost while applying the ledger set-up');
        expect(result.stderr).toContain('next: Each migration runs in one transaction');
        expect(result.code).toBe(1);
      } finally {
        await holder.close();
      }
    });
  },
  { empty: true },
);
