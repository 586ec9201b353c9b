import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AppError } from '@brain/errors';
import { loadMigrations, migrate, openPostgres, pendingMigrations, type Database, type Migration } from '../src/index.ts';
import { bootstrapRolesSql } from '../src/migrations/bootstrap-roles.sql.ts';
import { splitStatements } from '../src/migrations/split-statements.ts';
import { supersededChecksums } from '../src/migrations/superseded-checksums.ts';
import { describeDb } from '../src/testing/index.ts';
import { cliPending, supabaseDbPush } from './supabase-cli.ts';

const previousDir = fileURLToPath(new URL('./previous-migrations/', import.meta.url));

// The only edit to the match_artifacts migrations: this preamble, prepended. Their previous
// versions are the current files without it (the checksum test below proves it byte for byte);
// test/previous-migrations keeps only the file whose edit was more than a preamble.
const PGVECTOR_PREAMBLE = `-- pgvector's library is loaded first: a role that is not a superuser (Supabase's postgres) may put
-- hnsw.* settings in a function's SET clause only once the library has defined them in the session.
select '[1]'::vector;

`;

/** Every migration a superseded checksum names, as it was before its edit. */
function previousVersions(): Migration[] {
  const kept = new Map(loadMigrations(previousDir).map((m) => [m.name, m]));
  return loadMigrations()
    .filter((m) => m.name in supersededChecksums)
    .map((m) => {
      if (kept.has(m.name)) return kept.get(m.name) as Migration;
      const sql = m.sql.startsWith(PGVECTOR_PREAMBLE) ? m.sql.slice(PGVECTOR_PREAMBLE.length) : m.sql;
      return { name: m.name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/** The migrations as an existing deployment applied them: the files before their superseded edits. */
function previousRelease(): Migration[] {
  const previous = new Map(previousVersions().map((m) => [m.name, m]));
  return loadMigrations().filter((m) => m.name < '20261201070000').map((m) => previous.get(m.name) ?? m);
}

async function supabaseLedger(db: Database): Promise<{ version: string; name: string; statements: string[] }[]> {
  return db.query('select version, name, statements from supabase_migrations.schema_migrations order by version');
}

async function matchArtifactsDefinition(db: Database): Promise<unknown> {
  return db.query(`select pg_get_functiondef(p.oid) as def, p.proconfig from pg_proc p where p.proname = 'match_artifacts'`);
}

describe('superseded checksums', () => {
  it('are the checksums of the files before their edits, and each file changed since', () => {
    const previous = previousVersions();
    expect(previous.map((m) => m.name).sort()).toEqual(Object.keys(supersededChecksums).sort());
    const current = new Map(loadMigrations().map((m) => [m.name, m.checksum]));
    for (const m of previous) {
      expect(supersededChecksums[m.name]?.map((e) => e.checksum), m.name).toContain(m.checksum);
      expect(current.get(m.name), m.name).not.toBe(m.checksum);
    }
  });

  it("every migration that puts hnsw.* in a function's SET clause loads pgvector's library first", () => {
    for (const m of loadMigrations()) {
      const code = m.sql.replace(/--[^\n]*/g, '');
      const setsHnsw = code.search(/\bset\s+hnsw\.|pg_get_functiondef\s*\(\s*'public\.match_artifacts/i);
      if (setsHnsw < 0) continue;
      const loads = code.search(/select\s+'\[1\]'::vector\s*;/i);
      expect(loads, `${m.name} must start with select '[1]'::vector;`).toBeGreaterThanOrEqual(0);
      expect(loads, m.name).toBeLessThan(setsHnsw);
    }
  });
});

describeDb(
  'upgrading a database migrated by the previous release',
  (suite) => {
    it('accepts the superseded checksums, records the current ones, and ends as a fresh install does', async () => {
      const first = await migrate(suite.db, previousRelease());
      expect(first.applied.length).toBeGreaterThan(0);
      const [old] = await suite.db.query<{ checksum: string }>(
        "select checksum from brain_meta.schema_migrations where name = '20261129000700_create_match_artifacts.sql'",
      );
      expect(old?.checksum).toBe(supersededChecksums['20261129000700_create_match_artifacts.sql']?.[0]?.checksum);

      const all = loadMigrations();
      expect(await pendingMigrations(suite.db, all)).toEqual(all.filter((m) => m.name >= '20261201070000').map((m) => m.name));
      const second = await migrate(suite.db, all);
      expect(second.applied).toEqual(all.filter((m) => m.name >= '20261201070000').map((m) => m.name));
      const ledger = await suite.db.query<{ name: string; checksum: string }>('select name, checksum from brain_meta.schema_migrations order by name');
      expect(ledger).toEqual(all.map((m) => ({ name: m.name, checksum: m.checksum })));
      expect(await matchArtifactsDefinition(suite.db)).toEqual(await fresh((db) => matchArtifactsDefinition(db)));
    });

    it('still refuses any other edit of an applied migration', async () => {
      const edited = loadMigrations().map((m) => (m.name.startsWith('20261129000700') ? { ...m, sql: `${m.sql}\n-- edit`, checksum: 'e'.repeat(64) } : m));
      const error = (await migrate(suite.db, edited).catch((e: unknown) => e)) as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe('MIGRATION_EDITED');
    });

    /** The same query on a freshly migrated database of the same backend. */
    async function fresh<T>(fn: (db: Database) => Promise<T>): Promise<T> {
      const { createTestDatabase } = await import('../src/testing/index.ts');
      const other = await createTestDatabase(suite.backend);
      try {
        return await fn(other.db);
      } finally {
        await other.drop();
      }
    }
  },
  { empty: true },
);

describeDb(
  'brain migrate keeps the Supabase CLI ledger',
  (suite) => {
    it('writes version, name and statements as the CLI would, so `supabase db push` then has nothing to do', async () => {
      await suite.db.exec('create schema if not exists supabase_migrations');
      const all = loadMigrations();
      await migrate(suite.db, all);
      const rows = await supabaseLedger(suite.db);
      expect(rows).toEqual(
        all.map((m) => ({ version: m.name.slice(0, 14), name: m.name.slice(15, -4), statements: splitStatements(m.sql) })),
      );
      expect(await supabaseDbPush(suite.db, all)).toEqual([]);
    });

    it('lets `supabase db push` apply only the newer file after `brain migrate`, and `brain migrate` then record it', async () => {
      const probe: Migration = { name: '29991231000000_create_pushed_probe.sql', sql: 'create table public.pushed_probe (id int);\n', checksum: 'p'.repeat(64) };
      const all = [...loadMigrations(), probe];
      expect(await supabaseDbPush(suite.db, all)).toEqual([probe.name]);
      const result = await migrate(suite.db, all);
      expect(result.applied).toEqual([]);
      expect(result.alreadyApplied).toContain(probe.name);
      expect(await pendingMigrations(suite.db, all)).toEqual([]);
      await suite.db.exec("drop table public.pushed_probe; delete from brain_meta.schema_migrations where name like '2999%'; delete from supabase_migrations.schema_migrations where version like '2999%';");
    });
  },
  { empty: true },
);

describeDb(
  'brain migrate after an older brain migrate that did not keep the CLI ledger',
  (suite) => {
    it('backfills every migration it applied, so `supabase db push` neither re-runs nor refuses', async () => {
      const all = loadMigrations();
      await migrate(suite.db, all);
      await suite.db.exec('create schema if not exists supabase_migrations');
      // Before: the CLI finds no ledger and would run every file again ("relation already exists").
      expect(cliPending(all, [])).toHaveLength(all.length);
      await migrate(suite.db, all);
      expect((await supabaseLedger(suite.db)).map((r) => r.version)).toEqual(all.map((m) => m.name.slice(0, 14)));
      expect(await supabaseDbPush(suite.db, all)).toEqual([]);
    });
  },
  { empty: true },
);

describeDb(
  '`supabase db push` first, then brain migrate',
  (suite) => {
    it('applies every file statement by statement as the CLI does; brain migrate then runs nothing and every service sees the schema current', async () => {
      const all = loadMigrations();
      // The CLI runs the migrations on a database where the migrator never ran: no brain_meta.
      // Supabase has the API roles already; here the migrator's bootstrap stands in for that.
      await suite.db.exec(bootstrapRolesSql);
      expect(await supabaseDbPush(suite.db, all)).toEqual(all.map((m) => m.name));
      expect(await pendingMigrations(suite.db, all)).toEqual([]);
      const result = await migrate(suite.db, all);
      expect(result.applied).toEqual([]);
      expect(result.alreadyApplied).toEqual(all.map((m) => m.name));
      const [row] = await suite.db.query<{ n: number }>("select count(*)::int as n from pg_proc where proname = 'match_artifacts'");
      expect(row?.n).toBe(1);
    });
  },
  { empty: true },
);

describeDb(
  'pgvector on a database with an `extensions` schema',
  (suite) => {
    it('goes to `extensions` when that schema is on the search path, as on Supabase', async () => {
      const [installed] = await suite.db.query<{ n: number }>("select count(*)::int as n from pg_extension where extname = 'vector'");
      let db = suite.db;
      if (suite.backend === 'pglite') {
        await db.exec('create schema extensions; set search_path = "$user", public, extensions;');
      } else {
        // Every connection of the pool must see the setting: set it on the database, then reconnect.
        const [name] = await db.query<{ db: string }>('select current_database() as db');
        await db.exec(`create schema if not exists extensions; alter database ${name?.db} set search_path = "$user", public, extensions;`);
        db = openPostgres({ url: suite.url as string, display: 'extensions', prepare: true, maxConnections: 1 });
      }
      try {
        await migrate(db);
        const [vector] = await db.query<{ schema: string }>("select extnamespace::regnamespace::text as schema from pg_extension where extname = 'vector'");
        // A server that already has it (the Supabase-like one) keeps it where it was created.
        if (installed?.n === 0) expect(vector?.schema).toBe('extensions');
        else expect(vector?.schema).toBeDefined();
        const [fn] = await db.query<{ n: number }>('select count(*)::int as n from brain.match_artifacts(gen_random_uuid(), array_fill(0.1, array[1536])::vector, null, 5, 0)');
        expect(fn?.n).toBe(0);
      } finally {
        if (db !== suite.db) await db.close();
      }
    });
  },
  { empty: true },
);

describeDb(
  "migrating under Supabase's default privileges",
  (suite) => {
    it('leaves the Data API roles nothing and service_role no TRUNCATE, REFERENCES or TRIGGER on any table', async () => {
      // What supabase/postgres's initial schema sets for objects that postgres creates in public.
      await suite.db.exec(bootstrapRolesSql);
      await suite.db.exec(`
        alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
        alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
        alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;`);
      await migrate(suite.db);
      const grants = await suite.db.query<{ grantee: string; table: string; privilege: string }>(`
        select a.grantee::regrole::text as grantee, c.relname as table, a.privilege_type as privilege
        from pg_class c join pg_namespace n on n.oid = c.relnamespace, aclexplode(c.relacl) a
        where n.nspname = 'public' and c.relkind in ('r', 'p')
          and (a.grantee in ('anon'::regrole, 'authenticated'::regrole)
               or (a.grantee = 'service_role'::regrole and a.privilege_type in ('TRUNCATE', 'REFERENCES', 'TRIGGER')))
        order by 1, 2, 3`);
      expect(grants).toEqual([]);
      const [exec] = await suite.db.query<{ anon: boolean; authenticated: boolean }>(`
        select has_function_privilege('anon', p.oid, 'execute') as anon, has_function_privilege('authenticated', p.oid, 'execute') as authenticated
        from pg_proc p where p.proname = 'match_artifacts'`);
      expect(exec).toEqual({ anon: false, authenticated: false });
    });
  },
  { empty: true },
);
