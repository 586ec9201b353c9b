import { AppError } from '@brain/errors';
import type { Database, Queryable } from '../database.ts';
import { bootstrapRolesSql } from './bootstrap-roles.sql.ts';
import { loadMigrations, type Migration } from './load-migrations.ts';
import { requirePgvector } from './require-pgvector.ts';
import { isConnectionLost } from './connection-lost.ts';
import { retryingCatalogRace } from './concurrent-catalog-change.ts';
import { ensureSupabaseLedgerSql, readSupabaseLedger, recordInSupabaseLedger, wantsSupabaseLedger } from './supabase-ledger.ts';
import { isSupersededChecksum } from './superseded-checksums.ts';

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
  /** Recorded in the database but absent here: a newer release applied them. */
  unknown: string[];
}

// Any constant works, as long as every process that migrates uses the same one.
const MIGRATION_LOCK_KEY = 7_246_001;

const ledgerSql = `
create schema if not exists brain_meta;
create table if not exists brain_meta.schema_migrations (
  name text primary key,
  checksum text not null,
  applied_at timestamptz not null default now()
);
`;

/**
 * brain_app (20261201070000) reads the ledgers before it switches role, to refuse a schema with
 * pending migrations; a ledger created after that migration ran needs the same grants.
 */
const grantLedgersToAppSql = `
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'brain_app') then
    return;
  end if;
  grant usage on schema brain_meta to brain_app;
  grant select on table brain_meta.schema_migrations to brain_app;
  if to_regclass('supabase_migrations.schema_migrations') is not null then
    grant usage on schema supabase_migrations to brain_app;
    grant select on table supabase_migrations.schema_migrations to brain_app;
  end if;
end
$$;
`;

/** The services' login role owns nothing and may create nothing: migrating as it cannot work. */
async function refuseAppRole(db: Database): Promise<void> {
  const [row] = await db.query<{ role: string }>('select current_user as role');
  if (row?.role !== 'brain_app') return;
  throw new AppError({
    code: 'MIGRATION_WRONG_ROLE',
    message: `brain migrate is connected to ${db.display} as brain_app, the services' login role, which may not change the schema.`,
    nextStep: 'Run it with the schema owner\'s URL (on Supabase, the postgres user), e.g. DATABASE_URL=<owner URL> npx brain migrate, or use `supabase db push`.',
  });
}

/**
 * Applies supabase/migrations in file-name order, each in its own transaction together with its
 * ledger row (and the Supabase CLI's, where that ledger is kept: see supabase-ledger.ts). A second
 * run is a no-op. An applied migration whose file changed stops everything, naming the file: the
 * database no longer matches the repository, and guessing would be worse. The one exception is a
 * checksum listed in superseded-checksums.ts, which is accepted and brought up to date. A
 * migration that loses a race on a role with another database's migration is run again
 * (concurrent-catalog-change.ts).
 */
export async function migrate(db: Database, migrations: Migration[] = loadMigrations()): Promise<MigrateResult> {
  await refuseAppRole(db);
  await requirePgvector(db, db.display);
  const supabaseLedger = await during('the ledger set-up', () =>
    retryingCatalogRace(() => db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.exec(bootstrapRolesSql);
      await tx.exec(ledgerSql);
      const wanted = await wantsSupabaseLedger(tx);
      if (wanted) {
        await tx.exec(ensureSupabaseLedgerSql);
        await backfillSupabaseLedger(tx, migrations);
      }
      await tx.exec(grantLedgersToAppSql);
      return wanted;
    })),
  );

  const recorded = await readLedger(db);
  verifyChecksums(migrations, recorded);
  const pushedBySupabase = await readSupabaseLedger(db);

  const result: MigrateResult = { applied: [], alreadyApplied: [], unknown: [] };
  const known = new Set(migrations.map((m) => m.name));
  result.unknown = [...recorded.keys()].filter((name) => !known.has(name)).sort();

  for (const migration of migrations) {
    const applied = await during(migration.name, () =>
      retryingCatalogRace(() => db.transaction(async (tx) => {
        // Another process may be migrating too: serialise, then look again.
        await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        const rows = await tx.query<{ checksum: string }>(
          'select checksum from brain_meta.schema_migrations where name = $1',
          [migration.name],
        );
        if (rows[0]) {
          verifyChecksums([migration], new Map([[migration.name, rows[0].checksum]]));
          if (rows[0].checksum !== migration.checksum) {
            await tx.query('update brain_meta.schema_migrations set checksum = $2 where name = $1', [migration.name, migration.checksum]);
          }
          return false;
        }
        // `supabase db push` ran this file already: record it here as applied instead of running it twice.
        if (pushedBySupabase.has(versionOf(migration.name))) {
          await tx.query('insert into brain_meta.schema_migrations (name, checksum) values ($1, $2)', [migration.name, migration.checksum]);
          return false;
        }
        try {
          await tx.exec(migration.sql);
        } catch (error) {
          if (isConnectionLost(error)) throw error;
          throw new AppError({
            code: 'MIGRATION_FAILED',
            message: `Migration ${migration.name} failed: ${(error as Error).message}`,
            nextStep: 'Nothing from this migration was kept. Fix the cause above and run `brain migrate` again.',
            cause: error,
          });
        }
        await tx.query('insert into brain_meta.schema_migrations (name, checksum) values ($1, $2)', [
          migration.name,
          migration.checksum,
        ]);
        if (supabaseLedger) await recordInSupabaseLedger(tx, migration);
        return true;
      })),
    );
    (applied ? result.applied : result.alreadyApplied).push(migration.name);
  }

  await requirePgvector(db, db.display);
  return result;
}

/**
 * A connection that drops mid-migration (the server restarted, or a backend crashed and took the
 * others down) otherwise surfaces as whatever the driver was doing at the time.
 */
async function during<T>(step: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!isConnectionLost(error)) throw error;
    throw new AppError({
      code: 'MIGRATION_CONNECTION_LOST',
      message: `The connection to the database was lost while applying ${step}: ${(error as Error).message}`,
      nextStep:
        'Each migration runs in one transaction, so this one was rolled back unless its commit had already reached the server. Check the server (its log shows a restart or a crashed backend), then run `brain migrate` again: it applies only what is not recorded.',
      details: { migration: step },
      cause: error,
    });
  }
}

/**
 * Databases that `brain migrate` set up before it kept the CLI's ledger: every migration it
 * recorded goes there too, or `supabase db push` would take them for not applied.
 */
async function backfillSupabaseLedger(tx: Queryable, migrations: Migration[]): Promise<void> {
  const pushed = await readSupabaseLedger(tx);
  const recorded = await tx.query<{ name: string }>('select name from brain_meta.schema_migrations');
  const names = new Set(recorded.map((r) => r.name));
  for (const migration of migrations) {
    if (names.has(migration.name) && !pushed.has(versionOf(migration.name))) await recordInSupabaseLedger(tx, migration);
  }
}

/** Migrations that exist here but are not recorded in the database (by `brain migrate` or `supabase db push`). */
export async function pendingMigrations(db: Database, migrations: Migration[] = loadMigrations()): Promise<string[]> {
  const exists = await db.query<{ ok: boolean }>("select to_regclass('brain_meta.schema_migrations') is not null as ok");
  const recorded = exists[0]?.ok ? await readLedger(db) : new Map<string, string>();
  verifyChecksums(migrations, recorded);
  const pushedBySupabase = await readSupabaseLedger(db);
  return migrations.filter((m) => !recorded.has(m.name) && !pushedBySupabase.has(versionOf(m.name))).map((m) => m.name);
}

/** The 14-digit timestamp that starts a migration's file name: Supabase's ledger key. */
function versionOf(name: string): string {
  return name.slice(0, 14);
}

async function readLedger(db: Database): Promise<Map<string, string>> {
  const rows = await db.query<{ name: string; checksum: string }>(
    'select name, checksum from brain_meta.schema_migrations order by name',
  );
  return new Map(rows.map((r) => [r.name, r.checksum]));
}

function verifyChecksums(migrations: Migration[], recorded: Map<string, string>): void {
  for (const m of migrations) {
    const checksum = recorded.get(m.name);
    if (checksum !== undefined && checksum !== m.checksum && !isSupersededChecksum(m.name, checksum)) {
      throw new AppError({
        code: 'MIGRATION_EDITED',
        message: `Migration ${m.name} was edited after it was applied to this database (recorded checksum ${checksum.slice(0, 12)}…, file now ${m.checksum.slice(0, 12)}…).`,
        nextStep: `Applied migrations are immutable: restore supabase/migrations/${m.name} from version control and put the change in a new migration file.`,
        details: { migration: m.name },
      });
    }
  }
}
