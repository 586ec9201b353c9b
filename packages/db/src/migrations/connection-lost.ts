import { sqlState } from '../pg-error.ts';

// postgres.js's own codes for a socket that closed under a query.
const DRIVER_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'ECONNRESET', 'EPIPE']);

/**
 * The server went away under the query: terminated (57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now), or the socket closed. Also postgres.js's TypeError when it writes to
 * a socket that a crashed backend already closed (seen on Supabase when supautils crashed).
 */
export function isConnectionLost(error: unknown): boolean {
  const state = sqlState(error);
  if (state === '57P01' || state === '57P02' || state === '57P03' || state?.startsWith('08')) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && DRIVER_CODES.has(code)) return true;
  return error instanceof TypeError && /reading 'write'|reading 'end'/.test(error.message);
}
