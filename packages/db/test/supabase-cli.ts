import type { Database } from '../src/index.ts';
import type { Migration } from '../src/migrations/load-migrations.ts';
import { ensureSupabaseLedgerSql, supabaseLedgerRow } from '../src/migrations/supabase-ledger.ts';

/**
 * `supabase db push` as the CLI does it (pkg/migration/apply.go, file.go, history.go): the
 * pending files by its rule, then each file's statements, one by one, with its ledger insert, in
 * one transaction. Returns the files it applied. Throws as the CLI refuses when the ledgers
 * disagree.
 */
export async function supabaseDbPush(db: Database, migrations: Migration[]): Promise<string[]> {
  const remote = await db
    .query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version')
    .catch(() => []);
  const pending = cliPending(migrations, remote.map((r) => r.version));
  if (pending.length > 0) await db.exec(ensureSupabaseLedgerSql);
  for (const migration of pending) {
    const row = supabaseLedgerRow(migration);
    await db.transaction(async (tx) => {
      for (const statement of row.statements) await tx.exec(statement);
      await tx.query(
        `insert into supabase_migrations.schema_migrations (version, name, statements)
         values ($1, $2, array(select s from jsonb_array_elements_text($3::jsonb) with ordinality as t(s, n) order by n))`,
        [row.version, row.name, JSON.stringify(row.statements)],
      );
    });
  }
  return pending.map((m) => m.name);
}

/** FindPendingMigrations: remote versions must all exist locally, and no local file may be older than the newest remote one yet missing. */
export function cliPending(local: Migration[], remote: string[]): Migration[] {
  const versions = local.map((m) => supabaseLedgerRow(m).version);
  const missing: string[] = [];
  const unapplied: string[] = [];
  let i = 0;
  let j = 0;
  while (i < remote.length && j < versions.length) {
    const r = remote[i] as string;
    const l = versions[j] as string;
    if (r === l) {
      i++;
      j++;
    } else if (r < l) {
      missing.push(r);
      i++;
    } else {
      unapplied.push(local[j]?.name as string);
      j++;
    }
  }
  if (j === versions.length) missing.push(...remote.slice(i));
  if (missing.length > 0) throw new Error(`Remote migration versions not found in local migrations directory: ${missing.join(', ')}`);
  if (unapplied.length > 0) throw new Error(`Found local migration files to be inserted before the last migration on remote database: ${unapplied.join(', ')}`);
  return local.slice(remote.length);
}
