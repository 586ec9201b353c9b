import postgres from 'postgres';
import { AppError } from '@brain/errors';
import type { Database, Queryable, Row } from './database.ts';
import { isConnectionLost } from './migrations/connection-lost.ts';

export interface PostgresOptions {
  url: string;
  display: string;
  /** Off behind a transaction pooler (Supavisor port 6543, PgBouncer), which cannot keep prepared statements. */
  prepare: boolean;
  maxConnections?: number;
  applicationName?: string;
  /** Receives NOTICE messages sent to the client. */
  onNotice?: (message: string) => void;
}

export function openPostgres(options: PostgresOptions): Database {
  const sql = postgres(options.url, {
    prepare: options.prepare,
    max: options.maxConnections ?? 10,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: (notice) => options.onNotice?.(String(notice.message ?? '')),
    connection: { application_name: options.applicationName ?? 'company-brain' },
    types: {
      // Same as PGlite: a JSON parameter given as a string is already JSON and passes through;
      // postgres.js would otherwise encode it a second time, as a JSON string.
      json: {
        to: 114,
        from: [114, 3802],
        serialize: (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value)),
        parse: (text: string): unknown => JSON.parse(text),
      },
    },
  });
  const lost = (error: unknown): AppError => connectionLost(error, options.display);
  const root: Queryable = {
    async query<T extends Row = Row>(text: string, params: readonly unknown[] = []) {
      const run = async () => [...(await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]))] as unknown as T[];
      try {
        return await run();
      } catch (error) {
        if (!isConnectionLost(error)) throw error;
        if (!lostEarlier(error, text)) throw lost(error);
        try {
          return await run();
        } catch (again) {
          throw isConnectionLost(again) ? lost(again) : again;
        }
      }
    },
    async exec(script: string) {
      try {
        await sql.unsafe(script);
      } catch (error) {
        throw isConnectionLost(error) ? lost(error) : error;
      }
    },
  };
  return {
    kind: 'postgres',
    display: options.display,
    query: root.query,
    exec: root.exec,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const state: TransactionState = { started: false, settled: false, lost: undefined };
        try {
          return (await sql.begin((tx) => {
            state.started = true;
            return fn(transactionQueryable(tx, state));
          })) as T;
        } catch (error) {
          if (isConnectionLost(error)) state.lost ??= error;
          if (state.lost === undefined) throw error;
          // Lost before BEGIN ran (a connection that died while idle in the pool): nothing of the
          // callback ran, so it is safe to run once more on a fresh connection.
          if (!state.started && attempt === 1) continue;
          throw lost(state.lost);
        } finally {
          state.settled = true;
        }
      }
    },
    async listen(channel, onPayload) {
      const sub = await sql.listen(channel, onPayload);
      return async () => {
        await sub.unlisten();
      };
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

interface TransactionState {
  /** The callback was called: from then on, its work may have run, so it is never retried. */
  started: boolean;
  settled: boolean;
  /** The error with which a query of this transaction found its connection gone. */
  lost: unknown;
}

/** Long enough for postgres.js to report the closed connection, which it does at once. */
const LOST_WITHOUT_CLOSE_MS = 5_000;

/**
 * postgres.js 3.4.9 answers a callback that rejects by writing ROLLBACK, and a query by writing
 * it, even to a connection the server has closed: a TypeError from a timer then escapes every
 * await and kills the process (isDriverWriteAfterClose), and the pooled connection never works
 * again. So once a query of this transaction finds its connection lost, the callback is left
 * waiting (its work is void anyway: the server rolled it back) and postgres.js rejects the
 * transaction itself, through its own close handler; a query the callback makes after that waits
 * too. Should the close not come, the wait ends after LOST_WITHOUT_CLOSE_MS with the error: the
 * connection is then alive, and ROLLBACK safe. A commit cut off by the loss is postgres.js's own
 * write and still throws; the long-lived commands guard that one (apps/cli/src/driver-guard.ts).
 */
function transactionQueryable(tx: postgres.TransactionSql, state: TransactionState): Queryable {
  const stall = <T>(error: unknown): Promise<T> => {
    state.lost ??= error;
    return new Promise<T>((_, reject) => {
      setTimeout(() => {
        if (!state.settled) reject(error instanceof Error ? error : new Error(String(error)));
      }, LOST_WITHOUT_CLOSE_MS).unref();
    });
  };
  return {
    async query<T extends Row = Row>(text: string, params: readonly unknown[] = []) {
      if (state.lost !== undefined) return stall<T[]>(state.lost);
      try {
        const rows = await tx.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
        return [...rows] as unknown as T[];
      } catch (error) {
        if (isConnectionLost(error)) return stall<T[]>(error);
        throw error;
      }
    },
    async exec(script: string) {
      if (state.lost !== undefined) return stall<void>(state.lost);
      try {
        await tx.unsafe(script);
      } catch (error) {
        if (isConnectionLost(error)) return stall<void>(error);
        throw error;
      }
    },
  };
}

/**
 * postgres.js 3.4.9 hands the FATAL error of a connection the server ended (57P01) to the next
 * query sent on it, after the cut-off query already failed with CONNECTION_CLOSED. That error
 * names the other query's text: this one never reached a live backend and can be sent again.
 */
function lostEarlier(error: unknown, text: string): boolean {
  const query = (error as { query?: unknown } | null)?.query;
  return typeof query === 'string' && query !== text;
}

/** A query or transaction that lost its connection, as the caller should see it. */
function connectionLost(error: unknown, display: string): AppError {
  return new AppError({
    code: 'DB_CONNECTION_LOST',
    message: `The connection to PostgreSQL at ${display} was lost: ${(error as Error | undefined)?.message ?? String(error)}`,
    userMessage: 'The database connection was lost while handling this.',
    nextStep:
      'Nothing of it was kept unless its commit had reached the server. Try again in a moment; if it keeps happening, check the database (`brain doctor`, and the server log for a restart).',
    retryable: true,
    details: { database: display },
    cause: error,
  });
}
