import { loadMigrations, pendingMigrations } from '@brain/db';
import type { DoctorCheck } from '../check.ts';
import { fail, failWith, needsDatabase, pass } from '../check.ts';

/** Every migration in supabase/migrations applied, none edited after it was applied. */
export const migrationsCheck: DoctorCheck = {
  id: 'migrations',
  title: 'Migrations applied',
  async run(ctx) {
    const db = ctx.db;
    if (!db) return needsDatabase;
    const all = loadMigrations();
    let pending: string[];
    try {
      pending = await pendingMigrations(db, all);
    } catch (error) {
      return failWith(error, 'Restore the edited migration from version control and put the change in a new migration file.');
    }
    if (pending.length > 0) {
      const embedded = ctx.config?.mode === 'embedded';
      return fail(
        `${pending.length} of ${all.length} migration(s) not applied, starting with ${pending[0]}`,
        embedded ? 'Run `brain migrate` (or any brain command: the embedded database is migrated when it opens).' : 'Run `brain migrate` (on Render the deploy runs it before starting), or `supabase db push`.',
      );
    }
    ctx.schemaCurrent = true;
    return pass(`all ${all.length} applied, none edited since`);
  },
};
