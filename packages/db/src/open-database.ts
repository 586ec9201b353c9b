import { AppError, isAppError } from '@brain/errors';
import { acquireDataDirLock } from './data-dir-lock.ts';
import type { Database } from './database.ts';
import { openPglite } from './open-pglite.ts';
import { openPostgres } from './open-postgres.ts';
import { sqlState } from './pg-error.ts';

export type OpenDatabaseTarget =
  | { kind: 'pglite'; dataDir: string; display: string; thread?: boolean }
  | { kind: 'postgres'; url: string; display: string; prepare: boolean };

export interface OpenDatabaseOptions {
  /** Names the process in the embedded database's lock file, for the error a second process sees. */
  command: string;
  maxConnections?: number;
}

/** Opens the configured database and proves it answers, or fails with a message that says what to do. */
export async function openDatabase(target: OpenDatabaseTarget, options: OpenDatabaseOptions): Promise<Database> {
  if (target.kind === 'pglite') {
    const lockDir = target.dataDir.replace(/[/\\]pgdata[/\\]?$/, '');
    const lock = acquireDataDirLock(lockDir, options.command);
    try {
      // The lock is this process's, whichever thread runs PGlite: a second process is refused either way.
      return await openPglite({ dataDir: target.dataDir, display: target.display, onClose: lock.release, thread: target.thread ?? true });
    } catch (error) {
      lock.release();
      throw new AppError({
        code: 'DB_UNREACHABLE',
        message: `Could not open the embedded database in ${target.display}: ${(error as Error).message}`,
        nextStep: 'If the directory was copied or damaged, move it aside (or set BRAIN_DATA_DIR to a new directory) and run `brain migrate`.',
        cause: error,
      });
    }
  }

  const db = openPostgres({
    url: target.url,
    display: target.display,
    prepare: target.prepare,
    ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
    applicationName: `company-brain:${options.command}`,
  });
  try {
    await db.query('select 1');
    return db;
  } catch (error) {
    await db.close().catch(() => {});
    throw describeConnectError(error, target.display);
  }
}

function describeConnectError(thrown: unknown, display: string): AppError {
  // A reset during the first query comes wrapped as DB_CONNECTION_LOST; the driver's code says more here.
  const error = isAppError(thrown, 'DB_CONNECTION_LOST') ? thrown.cause : thrown;
  const state = sqlState(error);
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  let reason: string;
  let nextStep: string;
  if (state === '28P01' || state === '28000') {
    reason = 'the server refused the user name or password';
    nextStep = 'Check the user and password in DATABASE_URL (on Supabase, the database password, not the API key).';
  } else if (state === '3D000') {
    reason = 'the database does not exist';
    nextStep = 'Create it (createdb, or the Supabase dashboard), or fix the database name at the end of DATABASE_URL.';
  } else if (errno === 'ENOTFOUND' || errno === 'EAI_AGAIN') {
    reason = 'its host name does not resolve';
    nextStep = 'Check the host in DATABASE_URL.';
  } else if (errno === 'ECONNREFUSED' || errno === 'ECONNRESET' || errno === 'CONNECT_TIMEOUT' || errno === 'ETIMEDOUT') {
    reason = 'nothing accepted the connection';
    nextStep = 'Check that PostgreSQL is running and that the host and port in DATABASE_URL are right.';
  } else {
    reason = (error as Error | undefined)?.message ?? String(error);
    nextStep = 'Check DATABASE_URL, or unset it to use the embedded database.';
  }
  return new AppError({
    code: 'DB_UNREACHABLE',
    message: `Cannot connect to PostgreSQL at ${display}: ${reason}.`,
    nextStep,
    cause: error,
  });
}
