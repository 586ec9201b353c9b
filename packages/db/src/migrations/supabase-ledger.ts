import type { Queryable } from '../database.ts';
import type { Migration } from './load-migrations.ts';
import { splitStatements } from './split-statements.ts';

/**
 * The Supabase CLI's migration history, supabase_migrations.schema_migrations (version, name,
 * statements), as the CLI creates and fills it (pkg/migration/history.go, file.go): the version
 * is the file name's leading digits, the name the rest without `.sql`, the statements the file
 * as the CLI splits it. `supabase db push` skips every version it finds there, and refuses to
 * run when a local file is older than the newest recorded version but missing, so whenever
 * `brain migrate` writes it, it writes every migration it applied.
 */
export const ensureSupabaseLedgerSql = `
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
alter table supabase_migrations.schema_migrations add column if not exists statements text[];
alter table supabase_migrations.schema_migrations add column if not exists name text;
`;

/**
 * Written where the CLI's ledger exists, or where the database is a Supabase project's
 * (supabase_admin, its superuser, exists), so `supabase db push` can follow `brain migrate`.
 */
export async function wantsSupabaseLedger(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ ok: boolean }>(
    "select exists (select 1 from pg_namespace where nspname = 'supabase_migrations') or exists (select 1 from pg_roles where rolname = 'supabase_admin') as ok",
  );
  return row?.ok === true;
}

/** The versions the CLI's ledger holds; empty where it does not exist. */
export async function readSupabaseLedger(db: Queryable): Promise<Set<string>> {
  const [exists] = await db.query<{ ok: boolean }>("select to_regclass('supabase_migrations.schema_migrations') is not null as ok");
  if (!exists?.ok) return new Set();
  const rows = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations');
  return new Set(rows.map((r) => r.version));
}

export interface SupabaseLedgerRow {
  version: string;
  name: string;
  statements: string[];
}

const FILE_NAME = /^([0-9]+)_(.*)\.sql$/;

export function supabaseLedgerRow(migration: Migration): SupabaseLedgerRow {
  const match = FILE_NAME.exec(migration.name);
  return { version: match?.[1] ?? '', name: match?.[2] ?? '', statements: splitStatements(migration.sql) };
}

/** Records a migration as the CLI would have; a version already there (the CLI's own row) is kept. */
export async function recordInSupabaseLedger(tx: Queryable, migration: Migration): Promise<void> {
  const row = supabaseLedgerRow(migration);
  await tx.query(
    `insert into supabase_migrations.schema_migrations (version, name, statements)
     values ($1, $2, array(select s from jsonb_array_elements_text($3::jsonb) with ordinality as t(s, n) order by n))
     on conflict (version) do nothing`,
    [row.version, row.name, JSON.stringify(row.statements)],
  );
}
