import { AppError } from '@brain/errors';
import type { Database } from '../database.ts';
import { bootstrapRolesSql } from './bootstrap-roles.sql.ts';
import { loadMigrations, type Migration } from './load-migrations.ts';
import { requirePgvector } from './require-pgvector.ts';

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
 * Applies supabase/migrations in file-name order, each in its own transaction together with its
 * ledger row. A second run is a no-op. An applied migration whose file changed stops everything,
 * naming the file: the database no longer matches the repository, and guessing would be worse.
 */
export async function migrate(db: Database, migrations: Migration[] = loadMigrations()): Promise<MigrateResult> {
  await requirePgvector(db, db.display);
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(bootstrapRolesSql);
    await tx.exec(ledgerSql);
  });

  const recorded = await readLedger(db);
  verifyChecksums(migrations, recorded);
  const pushedBySupabase = await readSupabaseLedger(db);

  const result: MigrateResult = { applied: [], alreadyApplied: [], unknown: [] };
  const known = new Set(migrations.map((m) => m.name));
  result.unknown = [...recorded.keys()].filter((name) => !known.has(name)).sort();

  for (const migration of migrations) {
    const applied = await db.transaction(async (tx) => {
      // Another process may be migrating too: serialise, then look again.
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const rows = await tx.query<{ checksum: string }>(
        'select checksum from brain_meta.schema_migrations where name = $1',
        [migration.name],
      );
      if (rows[0]) {
        verifyChecksums([migration], new Map([[migration.name, rows[0].checksum]]));
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
      return true;
    });
    (applied ? result.applied : result.alreadyApplied).push(migration.name);
  }

  await requirePgvector(db, db.display);
  return result;
}

/** Migrations that exist here but are not recorded in the database. */
export async function pendingMigrations(db: Database, migrations: Migration[] = loadMigrations()): Promise<string[]> {
  const exists = await db.query<{ ok: boolean }>("select to_regclass('brain_meta.schema_migrations') is not null as ok");
  if (!exists[0]?.ok) return migrations.map((m) => m.name);
  const recorded = await readLedger(db);
  verifyChecksums(migrations, recorded);
  const pushedBySupabase = await readSupabaseLedger(db);
  return migrations.filter((m) => !recorded.has(m.name) && !pushedBySupabase.has(versionOf(m.name))).map((m) => m.name);
}

/** The 14-digit timestamp that starts a migration's file name: Supabase's ledger key. */
function versionOf(name: string): string {
  return name.slice(0, 14);
}

/**
 * Versions the Supabase CLI recorded (supabase_migrations.schema_migrations) when the same files
 * were applied with `supabase db push`. Empty where the CLI never ran.
 */
async function readSupabaseLedger(db: Database): Promise<Set<string>> {
  const [exists] = await db.query<{ ok: boolean }>("select to_regclass('supabase_migrations.schema_migrations') is not null as ok");
  if (!exists?.ok) return new Set();
  const rows = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations');
  return new Set(rows.map((r) => r.version));
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
    if (checksum !== undefined && checksum !== m.checksum) {
      throw new AppError({
        code: 'MIGRATION_EDITED',
        message: `Migration ${m.name} was edited after it was applied to this database (recorded checksum ${checksum.slice(0, 12)}…, file now ${m.checksum.slice(0, 12)}…).`,
        nextStep: `Applied migrations are immutable: restore supabase/migrations/${m.name} from version control and put the change in a new migration file.`,
        details: { migration: m.name },
      });
    }
  }
}
