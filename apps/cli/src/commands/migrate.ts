import type { Command } from 'commander';
import { migrate, openDatabase } from '@brain/db';
import { readConfig } from '../context.ts';
import { guardDriverWriteAfterClose } from '../driver-guard.ts';
import { print } from '../output.ts';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply supabase/migrations to the configured database (embedded, or BRAIN_MIGRATE_DATABASE_URL, else DATABASE_URL)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const config = readConfig();
      const db = await openDatabase(config.migrationDatabase, { command: 'brain migrate' });
      // The failed query's own rejection names the migration and says what to do: that is the error shown.
      const unguard = guardDriverWriteAfterClose(() => {});
      try {
        const result = await migrate(db);
        if (options.json) return print.json({ database: db.display, ...result });
        if (result.applied.length === 0) {
          print.line(`Database ${db.display} is up to date (${result.alreadyApplied.length} migrations applied earlier).`);
        } else {
          print.line(`Applied ${result.applied.length} migration(s) to ${db.display}:`);
          for (const name of result.applied) print.line(`  + ${name}`);
        }
        if (result.unknown.length > 0) {
          print.line(`note: the database has ${result.unknown.length} migration(s) this release does not know (a newer release applied them): ${result.unknown.join(', ')}`);
        }
      } finally {
        await db.close().catch(() => {});
        unguard();
      }
    });
}
