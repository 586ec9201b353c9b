import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '@brain/errors';
import { waitUntil } from '@brain/testkit';
import postgres from 'postgres';
import { isDriverWriteAfterClose, loadMigrations, migrate, openPostgres, type Migration } from '../src/index.ts';
import { describePostgres, testDatabaseUrl } from '../src/testing/index.ts';
import { withDatabase } from '../src/testing/postgres-template.ts';

/**
 * Migrating as a role that is not a superuser, the way Supabase's `postgres` is, one migration per
 * connection, so that nothing one file loaded into the session helps the next (`supabase db push`
 * of the newest file alone; a `brain migrate` after a release). Against a superuser
 * TEST_DATABASE_URL, a role like Supabase's postgres is made for it, with pgvector created for it
 * beforehand as the Dashboard does; against a server whose user already is such a role (the
 * Supabase-like one in .ci), that user migrates a database of its own.
 */
describePostgres(
  'migrating as a role that is not a superuser',
  () => {
    const admin = testDatabaseUrl() as string;
    const database = `brain_t_nosuper_${randomBytes(4).toString('hex')}`;
    let createdRole: string | undefined;
    let url = '';

    beforeAll(async () => {
      const sql = postgres(admin, { max: 1, onnotice: () => {} });
      try {
        const [me] = await sql<{ rolsuper: boolean }[]>`select rolsuper from pg_roles where rolname = current_user`;
        if (me?.rolsuper) {
          createdRole = `brain_t_owner_${randomBytes(4).toString('hex')}`;
          await sql.unsafe(`create role ${createdRole} login nosuperuser createdb createrole bypassrls`);
          await sql.unsafe(`create database ${database} owner ${createdRole}`);
          const inDb = postgres(withDatabase(admin, database), { max: 1, onnotice: () => {} });
          await inDb.unsafe('create extension if not exists vector').finally(() => inDb.end({ timeout: 5 }));
          const u = new URL(withDatabase(admin, database));
          u.username = createdRole;
          u.password = '';
          url = u.toString();
        } else {
          await sql.unsafe(`create database ${database}`);
          url = withDatabase(admin, database);
        }
      } finally {
        await sql.end({ timeout: 5 });
      }
    });

    afterAll(async () => {
      const sql = postgres(admin, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop database if exists ${database} with (force)`);
        if (createdRole) await sql.unsafe(`drop role if exists ${createdRole}`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    });

    it('applies every migration on a fresh connection of its own after the ones before it', async () => {
      const all = loadMigrations();
      for (let i = 0; i < all.length; i++) {
        const db = openPostgres({ url, display: database, prepare: true, maxConnections: 1 });
        try {
          const result = await migrate(db, all.slice(0, i + 1)).catch((error: unknown) => error);
          if (result instanceof Error) throw new Error(`${all[i]?.name} alone: ${result.message}`);
          expect((result as { applied: string[] }).applied).toEqual([all[i]?.name]);
        } finally {
          await db.close();
        }
      }
      const db = openPostgres({ url, display: database, prepare: true, maxConnections: 1 });
      try {
        expect((await migrate(db, all)).applied).toEqual([]);
      } finally {
        await db.close();
      }
    });

    it('names the migration when the connection is lost in the middle of it', async () => {
      const stuck: Migration = { name: '29991231000000_wait_for_the_axe.sql', sql: 'select pg_sleep(60);', checksum: 's'.repeat(64) };
      const db = openPostgres({ url, display: database, prepare: true, maxConnections: 1 });
      const killer = postgres(url, { max: 1, onnotice: () => {} });
      const restore = tolerateDriverWriteAfterClose();
      try {
        const running = migrate(db, [...loadMigrations(), stuck]).catch((error: unknown) => error);
        // Every earlier migration runs first: the stuck one starts whenever they are done.
        await waitUntil(
          async () => {
            const rows = await killer`
              select pg_terminate_backend(pid) as ok from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid() and query like 'select pg_sleep(60)%'`;
            return rows.some((r) => r.ok === true);
          },
          { timeoutMs: 30_000, intervalMs: 50, what: 'the stuck migration to run, to kill its backend' },
        );
        const error = (await running) as AppError;
        expect(error).toBeInstanceOf(AppError);
        expect(error.code).toBe('MIGRATION_CONNECTION_LOST');
        expect(error.message).toContain(stuck.name);
        expect(error.nextStep).toContain('brain migrate');
      } finally {
        await killer.end({ timeout: 5 });
        await db.close().catch(() => {});
        // Not a wait for a condition: postgres.js's stray write (see below) may come from a timer
        // just after the close, or not at all; this is the window in which it is tolerated.
        await new Promise((resolve) => setTimeout(resolve, 200));
        restore();
      }
    });
  },
  { empty: true },
);

/**
 * postgres.js throws a TypeError from a timer after a connection closed under a transaction
 * (isDriverWriteAfterClose; `brain migrate` survives it the same way). Only that one is
 * tolerated here; any other uncaught error still goes to vitest.
 */
function tolerateDriverWriteAfterClose(): () => void {
  const previous = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  const handler = (error: Error, origin: NodeJS.UncaughtExceptionOrigin): void => {
    if (isDriverWriteAfterClose(error)) return;
    for (const listener of previous) listener(error, origin);
  };
  process.on('uncaughtException', handler);
  return () => {
    process.off('uncaughtException', handler);
    for (const listener of previous) process.on('uncaughtException', listener);
  };
}
