import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '@brain/errors';
import { assessPgvector, defaultMigrationsDir, loadMigrations, migrate, openPostgres, pendingMigrations, versionAtLeast } from '../src/index.ts';
import { describeDb } from '../src/testing/index.ts';

function copyMigrations(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-migrations-'));
  for (const file of fs.readdirSync(defaultMigrationsDir)) fs.copyFileSync(path.join(defaultMigrationsDir, file), path.join(dir, file));
  return dir;
}

describeDb(
  'migrate on an empty database',
  (suite) => {
    it('applies every migration in order, and a second run changes nothing', async () => {
      const all = loadMigrations();
      expect(await pendingMigrations(suite.db)).toEqual(all.map((m) => m.name));

      const first = await migrate(suite.db);
      expect(first.applied).toEqual(all.map((m) => m.name));
      expect(first.alreadyApplied).toEqual([]);

      const ledger = await suite.db.query<{ name: string; checksum: string }>(
        'select name, checksum from brain_meta.schema_migrations order by name',
      );
      expect(ledger).toEqual(all.map((m) => ({ name: m.name, checksum: m.checksum })));

      const schemaBefore = await schemaSnapshot(suite.db.query.bind(suite.db));
      const second = await migrate(suite.db);
      expect(second.applied).toEqual([]);
      expect(second.alreadyApplied).toHaveLength(all.length);
      expect(await schemaSnapshot(suite.db.query.bind(suite.db))).toEqual(schemaBefore);
      expect(await pendingMigrations(suite.db)).toEqual([]);
    });

    it('refuses to continue when an applied migration was edited, naming the file', async () => {
      const dir = copyMigrations();
      const victim = loadMigrations(dir)[2]?.name as string;
      fs.appendFileSync(path.join(dir, victim), '\n-- a quiet edit\n');

      const error = await migrate(suite.db, loadMigrations(dir)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('MIGRATION_EDITED');
      expect((error as AppError).message).toContain(victim);
      expect((error as AppError).nextStep).toContain(`supabase/migrations/${victim}`);
    });

    it('applies a new migration, and rolls back a failing one entirely, naming it', async () => {
      const dir = copyMigrations();
      fs.writeFileSync(path.join(dir, '29991231000000_add_probe.sql'), 'create table public.probe_ok (id int);');
      expect((await migrate(suite.db, loadMigrations(dir))).applied).toEqual(['29991231000000_add_probe.sql']);

      fs.writeFileSync(
        path.join(dir, '29991231000001_broken.sql'),
        'create table public.probe_half (id int);\nselect no_such_function();',
      );
      const error = (await migrate(suite.db, loadMigrations(dir)).catch((e: unknown) => e)) as AppError;
      expect(error.code).toBe('MIGRATION_FAILED');
      expect(error.message).toContain('29991231000001_broken.sql');
      const [half] = await suite.db.query<{ exists: boolean }>("select to_regclass('public.probe_half') is not null as exists");
      expect(half?.exists).toBe(false);
      expect(await pendingMigrations(suite.db, loadMigrations(dir))).toEqual(['29991231000001_broken.sql']);
      await suite.db.exec('drop table public.probe_ok; delete from brain_meta.schema_migrations where name like \'2999%\';');
    });

    it('creates the Supabase roles it needs where they are missing', async () => {
      const roles = await suite.db.query<{ rolname: string; rolbypassrls: boolean }>(
        "select rolname, rolbypassrls from pg_roles where rolname in ('anon', 'authenticated', 'service_role', 'brain_tenant') order by 1",
      );
      expect(roles).toEqual([
        { rolname: 'anon', rolbypassrls: false },
        { rolname: 'authenticated', rolbypassrls: false },
        { rolname: 'brain_tenant', rolbypassrls: false },
        { rolname: 'service_role', rolbypassrls: true },
      ]);
    });
  },
  { empty: true },
);

describeDb(
  'migrate from several processes at once',
  (suite) => {
    it('applies each migration exactly once', async () => {
      if (suite.backend === 'pglite') {
        // One PGlite instance is one connection; the race needs separate connections.
        const results = await Promise.all([migrate(suite.db), migrate(suite.db)]);
        expect(results.flatMap((r) => r.applied)).toHaveLength(loadMigrations().length);
        return;
      }
      const dbs = Array.from({ length: 4 }, () => openPostgres({ url: suite.url as string, display: 'race', prepare: true, maxConnections: 2 }));
      try {
        const results = await Promise.all(dbs.map((db) => migrate(db)));
        const applied = results.flatMap((r) => r.applied).sort();
        expect(applied).toEqual(loadMigrations().map((m) => m.name));
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
      }
    });
  },
  { empty: true },
);

describe('pgvector version requirement', () => {
  it('compares versions numerically', () => {
    expect(versionAtLeast('0.8.0', '0.8.0')).toBe(true);
    expect(versionAtLeast('0.10.1', '0.8.0')).toBe(true);
    expect(versionAtLeast('0.7.4', '0.8.0')).toBe(false);
    expect(versionAtLeast('1.0', '0.8.0')).toBe(true);
  });

  it('names the extension and the version needed when pgvector is missing or too old', () => {
    const missing = catchError(() => assessPgvector(undefined, 'db.example:5432/app'));
    expect(missing.code).toBe('PGVECTOR_MISSING');
    expect(missing.message).toMatch(/pgvector extension \(vector\).*0\.8\.0 or newer/);

    const oldInstalled = catchError(() => assessPgvector({ default_version: '0.8.0', installed_version: '0.7.4' }, 'x'));
    expect(oldInstalled.code).toBe('PGVECTOR_TOO_OLD');
    expect(oldInstalled.message).toContain('pgvector 0.7.4 is installed');
    expect(oldInstalled.nextStep).toContain('ALTER EXTENSION vector UPDATE');

    const oldAvailable = catchError(() => assessPgvector({ default_version: '0.5.1', installed_version: null }, 'x'));
    expect(oldAvailable.code).toBe('PGVECTOR_TOO_OLD');
    expect(oldAvailable.message).toContain('offers pgvector 0.5.1');

    expect(() => assessPgvector({ default_version: '0.8.0', installed_version: null }, 'x')).not.toThrow();
  });
});

function catchError(fn: () => void): AppError {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected an error');
}

async function schemaSnapshot(query: (sql: string) => Promise<Record<string, unknown>[]>): Promise<unknown> {
  return query(`
    select c.relname, c.relkind, c.relrowsecurity, c.relforcerowsecurity
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'brain_private', 'brain_meta') order by 1`);
}

describeDb('migrations applied with `supabase db push`', (suite) => {
  it('records a migration the Supabase CLI already ran instead of running it twice, and counts it as applied', async () => {
    const pushed = { name: '20991231000000_create_pushed_table.sql', sql: 'create table public.pushed_by_cli (id int);', checksum: 'c'.repeat(64) };
    const later = { name: '20991231000100_create_later_table.sql', sql: 'create table public.applied_by_brain (id int);', checksum: 'd'.repeat(64) };
    const all = [...loadMigrations(), pushed, later];
    expect(await pendingMigrations(suite.db, all)).toEqual([pushed.name, later.name]);
    // What the Supabase CLI leaves behind after `supabase db push`.
    // (A Supabase-like server has it already: `brain migrate` keeps it there.)
    await suite.db.exec(`create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
      insert into supabase_migrations.schema_migrations (version, name) values ('20991231000000', 'create_pushed_table');`);
    expect(await pendingMigrations(suite.db, all)).toEqual([later.name]);
    const result = await migrate(suite.db, all);
    expect(result.applied).toEqual([later.name]);
    expect(result.alreadyApplied).toContain(pushed.name);
    const [tables] = await suite.db.query<{ pushed: boolean; later: boolean }>(
      "select to_regclass('public.pushed_by_cli') is not null as pushed, to_regclass('public.applied_by_brain') is not null as later",
    );
    expect(tables).toEqual({ pushed: false, later: true });
    expect(await pendingMigrations(suite.db, all)).toEqual([]);
  });
});
