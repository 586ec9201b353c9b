import { AppError } from '@brain/errors';
import type { Queryable } from '../database.ts';

export const MIN_PGVECTOR = '0.8.0';

/** Compares dotted versions numerically: 0.10.0 is newer than 0.8.0. */
export function versionAtLeast(version: string, minimum: string): boolean {
  const a = version.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const b = minimum.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

export interface PgvectorAvailability {
  default_version: string;
  installed_version: string | null;
}

/**
 * Iterative index scans, which match_artifacts relies on for large workspaces, arrived in
 * pgvector 0.8.0. Checked before migrating (is a new enough version available?) and after
 * (is the installed one new enough? `create extension if not exists` never upgrades).
 */
export async function requirePgvector(db: Queryable, display: string): Promise<PgvectorAvailability> {
  const rows = await db.query<PgvectorAvailability & Record<string, unknown>>(
    "select default_version, installed_version from pg_available_extensions where name = 'vector'",
  );
  assessPgvector(rows[0], display);
  return rows[0] as PgvectorAvailability;
}

/** The decision, apart from the query: throws the error that tells the operator what to do. */
export function assessPgvector(row: PgvectorAvailability | undefined, display: string): void {
  if (!row) {
    throw new AppError({
      code: 'PGVECTOR_MISSING',
      message: `The PostgreSQL server at ${display} does not have the pgvector extension (vector) installed; version ${MIN_PGVECTOR} or newer is needed.`,
      nextStep:
        'On Supabase, enable "vector" under Database → Extensions. On Debian/Ubuntu, install postgresql-<major>-pgvector (or build pgvector from source), then run `brain migrate` again.',
    });
  }
  const installed = row.installed_version;
  if (installed !== null && !versionAtLeast(installed, MIN_PGVECTOR)) {
    throw new AppError({
      code: 'PGVECTOR_TOO_OLD',
      message: `pgvector ${installed} is installed at ${display}; version ${MIN_PGVECTOR} or newer is needed (iterative index scans).`,
      nextStep: versionAtLeast(row.default_version, MIN_PGVECTOR)
        ? 'Run `ALTER EXTENSION vector UPDATE;` as the database owner, then start again.'
        : "Upgrade the pgvector package on the server (Supabase: upgrade the project's Postgres version), then run `ALTER EXTENSION vector UPDATE;`.",
    });
  }
  if (installed === null && !versionAtLeast(row.default_version, MIN_PGVECTOR)) {
    throw new AppError({
      code: 'PGVECTOR_TOO_OLD',
      message: `The server at ${display} offers pgvector ${row.default_version}; version ${MIN_PGVECTOR} or newer is needed (iterative index scans).`,
      nextStep: 'Upgrade the pgvector package on the server, then run `brain migrate` again.',
    });
  }
}
