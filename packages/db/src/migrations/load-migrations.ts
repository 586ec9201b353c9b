import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Migration {
  /** The file name, e.g. 20261129000100_create_extensions_and_roles.sql; it orders the migrations. */
  name: string;
  sql: string;
  checksum: string;
}

/** supabase/migrations at the repository root: the one source of truth for the schema. */
export const defaultMigrationsDir = fileURLToPath(new URL('../../../../supabase/migrations/', import.meta.url));

const MIGRATION_FILE = /^\d{14}_[a-z0-9_]+\.sql$/;

export function loadMigrations(dir: string = defaultMigrationsDir): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((file) => MIGRATION_FILE.test(file))
    .sort()
    .map((name) => {
      // Line endings must not make a checkout on another OS look like an edit.
      const sql = fs.readFileSync(path.join(dir, name), 'utf8').replace(/\r\n/g, '\n');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/** One checksum over all migrations: names a migrated template database (packages/testkit). */
export function migrationsFingerprint(migrations: Migration[]): string {
  const hash = createHash('sha256');
  for (const m of migrations) hash.update(`${m.name}:${m.checksum}\n`);
  return hash.digest('hex').slice(0, 16);
}
