import { isAppError } from '@brain/errors';
import { sqlState } from '../pg-error.ts';

// postgres.js's own codes for a socket that closed under a query.
const DRIVER_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'ECONNRESET', 'EPIPE']);

/**
 * The server went away under the query: terminated (57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now, 08xxx), or the socket closed under the driver.
 */
export function isConnectionLost(error: unknown): boolean {
  // What openPostgres turns those into.
  if (isAppError(error, 'DB_CONNECTION_LOST')) return true;
  const state = sqlState(error);
  if (state === '57P01' || state === '57P02' || state === '57P03' || state?.startsWith('08')) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && DRIVER_CODES.has(code)) return true;
  return isDriverWriteAfterClose(error);
}

/**
 * postgres.js 3.4.9 writes a transaction's ROLLBACK from a setImmediate after the socket closed
 * (porsager/postgres#1154, #1208; unfixed upstream). The TypeError escapes every await as an
 * uncaught exception, although the failed query already rejected with the real reason.
 */
export function isDriverWriteAfterClose(error: unknown): boolean {
  return error instanceof TypeError && error.message === "Cannot read properties of null (reading 'write')" && /nextWrite/.test(error.stack ?? '');
}
