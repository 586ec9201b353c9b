import type { Command } from 'commander';
import { isDriverWriteAfterClose, migrate, openDatabase } from '@brain/db';
import { formatCliError } from '../cli-error.ts';
import { isDebug, readConfig } from '../context.ts';
import { print } from '../output.ts';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply supabase/migrations to the configured database (embedded, or BRAIN_MIGRATE_DATABASE_URL, else DATABASE_URL)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const config = readConfig();
      const db = await openDatabase(config.migrationDatabase, { command: 'brain migrate' });
      const unguard = surviveDriverWriteAfterClose();
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

/**
 * A connection lost mid-migration (a crashed backend restarts the whole server) makes postgres.js
 * throw a TypeError from a timer after the failed query already rejected (isDriverWriteAfterClose).
 * Without this the process dies of it before printing that rejection, the error that names the
 * migration and says what to do.
 */
function surviveDriverWriteAfterClose(): () => void {
  const handler = (error: Error): void => {
    if (isDriverWriteAfterClose(error)) return;
    // Anything else is as fatal as it would have been without this handler.
    process.stderr.write(formatCliError(error, isDebug()));
    process.exit(1);
  };
  process.on('uncaughtException', handler);
  return () => process.off('uncaughtException', handler);
}
