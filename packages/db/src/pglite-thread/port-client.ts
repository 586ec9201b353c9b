import { AppError } from '@brain/errors';
import type { Queryable, Row } from '../database.ts';
import type { PgliteDatabase } from '../open-pglite.ts';
import { reviveError } from './cross-thread-error.ts';
import type { DumpedDataDir, Reply, Request } from './protocol.ts';

/** One side of a conversation with PGlite's thread: the Worker itself, or a MessagePort it serves. */
export interface ThreadEndpoint {
  post(message: unknown): void;
  onReply(handler: (reply: Reply) => void): void;
  /** Keeps the process alive while a caller waits, and only then. */
  ref(): void;
  unref(): void;
  /** Ends this side after the last statement (terminates the worker, or closes the port). */
  end(): Promise<void>;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type WithoutId<R> = R extends unknown ? Omit<R, 'id'> : never;

export interface PortClient {
  db: PgliteDatabase;
  /** The endpoint stopped (the thread died, or the port closed): every pending and later statement fails. */
  fail(reason: string, cause?: unknown): AppError;
  readonly closing: boolean;
}

/**
 * The Database interface over messages to PGlite's thread. Callers are serialised here exactly as
 * in-process: one root statement or one whole transaction at a time. Several clients (threads)
 * may talk to the one PGlite: its own lock serialises their statements and transactions there.
 */
export function createPortClient(endpoint: ThreadEndpoint, display: string, options: { onClose?: () => void; closesDatabase: boolean }): PortClient {
  const pending = new Map<number, Pending>();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let closing = false;
  let dead: AppError | undefined;
  const settle = () => {
    if (pending.size === 0) endpoint.unref();
  };

  const fail = (reason: string, cause?: unknown): AppError => {
    if (dead) return dead;
    dead = new AppError({
      code: 'DB_THREAD_DIED',
      message: `The embedded database's thread stopped (${reason}); the database in ${display} is no longer reachable from this process.`,
      nextStep: 'Restart the brain process. If it happens again, set BRAIN_PGLITE_THREAD=off to run the database on the main thread, and report the message above.',
      cause,
    });
    for (const waiter of pending.values()) waiter.reject(dead);
    pending.clear();
    settle();
    return dead;
  };

  endpoint.onReply((reply) => {
    switch (reply.type) {
      case 'notify':
        return listeners.get(reply.listener)?.(reply.payload);
      case 'result':
      case 'error': {
        const waiter = pending.get(reply.id);
        pending.delete(reply.id);
        settle();
        if (reply.type === 'result') waiter?.resolve(reply.value);
        else waiter?.reject(reviveError(reply.error));
      }
    }
  });

  const call = <T>(request: WithoutId<Request>): Promise<T> => {
    if (dead) return Promise.reject(dead);
    if (closing) return Promise.reject(new AppError({ code: 'DB_CLOSED', message: `The embedded database in ${display} is closed.`, nextStep: 'Open it again.' }));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) endpoint.ref();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        endpoint.post({ ...request, id });
      } catch (error) {
        // A parameter that cannot be cloned (a function, a class with private state) fails here, alone.
        pending.delete(id);
        settle();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  };

  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn);
    tail = run.catch(() => undefined);
    return run;
  };
  const on = (tx: number | undefined): Queryable => ({
    query: <T extends Row = Row>(text: string, params: readonly unknown[] = []) => call<T[]>({ op: 'query', text, params, ...(tx === undefined ? {} : { tx }) }),
    exec: (script: string) => call<void>({ op: 'exec', script, ...(tx === undefined ? {} : { tx }) }),
  });
  const root = on(undefined);
  let nextTx = 1;
  let nextListener = 1;
  let closeOnce: Promise<void> | undefined;

  const db: PgliteDatabase = {
    kind: 'pglite',
    display,
    // Root statements queue behind a running transaction, as in-process: PGlite has one session.
    query: (text, params) => exclusive(() => root.query(text, params)),
    exec: (script) => exclusive(() => root.exec(script)),
    transaction: (fn) =>
      exclusive(async () => {
        const tx = nextTx++;
        await call({ op: 'begin', tx });
        let result;
        try {
          result = await fn(on(tx));
        } catch (error) {
          await call({ op: 'end', tx, commit: false }).catch(() => undefined);
          throw error;
        }
        await call({ op: 'end', tx, commit: true });
        return result;
      }),
    async listen(channel, onPayload) {
      const listener = nextListener++;
      listeners.set(listener, onPayload);
      try {
        await call({ op: 'listen', listener, channel });
      } catch (error) {
        listeners.delete(listener);
        throw error;
      }
      return async () => {
        listeners.delete(listener);
        if (!closing && !dead) await call({ op: 'unlisten', listener });
      };
    },
    async dumpDataDir() {
      const dumped = await call<DumpedDataDir>({ op: 'dump' });
      const bytes = new Uint8Array(dumped.bytes);
      return dumped.name ? new File([bytes], dumped.name, { type: dumped.type }) : new Blob([bytes], { type: dumped.type });
    },
    close() {
      closeOnce ??= (async () => {
        try {
          // A connection of another thread leaves the database open: only its owner closes it.
          if (!dead) await tail.then(() => (options.closesDatabase ? call({ op: 'close' }) : undefined));
        } finally {
          closing = true;
          await endpoint.end();
          options.onClose?.();
        }
      })();
      return closeOnce;
    },
  };
  return {
    db,
    fail,
    get closing() {
      return closing;
    },
  };
}
