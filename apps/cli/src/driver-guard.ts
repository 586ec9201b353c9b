import { AppError } from '@brain/errors';
import { isDriverWriteAfterClose } from '@brain/db';
import { formatCliError } from './cli-error.ts';
import { isDebug } from './context.ts';

/**
 * postgres.js 3.4.9 can still throw from a timer after a connection closed under a commit
 * (isDriverWriteAfterClose; openPostgres keeps every other loss from reaching it). The query
 * already failed with the real reason, so the TypeError itself is handed to `onStray` as an
 * AppError instead of killing the process. Any other uncaught error stays fatal, as without this.
 */
export function guardDriverWriteAfterClose(onStray: (error: AppError) => void, fatal: (error: Error) => void = printAndExit): () => void {
  const handler = (error: Error): void => {
    if (isDriverWriteAfterClose(error)) {
      onStray(driverConnectionUnusable(error));
      return;
    }
    fatal(error);
  };
  process.on('uncaughtException', handler);
  return () => process.off('uncaughtException', handler);
}

function printAndExit(error: Error): void {
  process.stderr.write(formatCliError(error, isDebug()));
  process.exit(1);
}

function driverConnectionUnusable(error: Error): AppError {
  return new AppError({
    code: 'DB_CONNECTION_UNUSABLE',
    message: 'A database connection was lost during a commit, and the PostgreSQL driver (postgres.js 3.4.9) cannot use it again',
    nextStep:
      'This process drains and exits so that its supervisor (Render, systemd, Docker) starts it again with fresh connections; check the database (`brain doctor`, and its log for a restart) if it happens again.',
    cause: error,
  });
}
