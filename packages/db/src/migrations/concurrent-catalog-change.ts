import { sqlState, SqlState } from '../pg-error.ts';

/**
 * Roles, their memberships and their settings are shared by every database of a server, but the
 * migration lock is an advisory lock, which is per database. Two databases migrated at once (a
 * test run, staging beside production on one server) can change the same role together, and
 * PostgreSQL fails the later one: "tuple concurrently updated" (XX000) when both update a catalog
 * row, a unique violation on a catalog index when both insert it. The failing statement waited for
 * the other transaction to end first, so the same migration run again finds the change committed.
 */
export function isConcurrentCatalogChange(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const state = sqlState(e);
    if (state === 'XX000' && /tuple concurrently (updated|deleted)/.test((e as Error).message)) return true;
    if (state === SqlState.uniqueViolation && catalogIndex(e)) return true;
  }
  return false;
}

// Catalog indexes are named pg_…; none of this schema's constraints is.
function catalogIndex(error: unknown): boolean {
  const e = error as { constraint_name?: unknown; constraint?: unknown; schema_name?: unknown };
  const name = e.constraint_name ?? e.constraint;
  return (typeof name === 'string' && name.startsWith('pg_')) || e.schema_name === 'pg_catalog';
}

/** Runs `attempt` again (a fresh transaction each time) while it loses such a race, up to `tries` times. */
export async function retryingCatalogRace<T>(attempt: () => Promise<T>, tries = 5): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= tries || !isConcurrentCatalogChange(error)) throw error;
    }
  }
}
