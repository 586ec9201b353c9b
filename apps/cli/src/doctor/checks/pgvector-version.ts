import { assessPgvector, MIN_PGVECTOR, type PgvectorAvailability } from '@brain/db';
import type { DoctorCheck } from '../check.ts';
import { fail, failWith, needsDatabase, pass } from '../check.ts';

export const pgvectorCheck: DoctorCheck = {
  id: 'pgvector',
  title: `pgvector ${MIN_PGVECTOR} or newer`,
  async run(ctx) {
    const db = ctx.db;
    if (!db) return needsDatabase;
    const [row] = await db.query<PgvectorAvailability & Record<string, unknown>>(
      "select default_version, installed_version from pg_available_extensions where name = 'vector'",
    );
    try {
      assessPgvector(row, db.display);
    } catch (error) {
      return failWith(error, 'Install pgvector on the server, then run `brain migrate`.');
    }
    if (!row?.installed_version) {
      return fail(`pgvector ${row?.default_version ?? '?'} is available but not installed in this database`, 'Run `brain migrate` (it creates the extension), then run `brain doctor` again.');
    }
    return pass(`pgvector ${row.installed_version} installed`);
  },
};
