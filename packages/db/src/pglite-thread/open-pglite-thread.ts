import { Worker } from 'node:worker_threads';
import { AppError } from '@brain/errors';
import type { Queryable, Row } from '../database.ts';
import type { PgliteDatabase } from '../open-pglite.ts';
import { reviveError } from './cross-thread-error.ts';
import type { DumpedDataDir, Reply, Request, WorkerOpenOptions } from './protocol.ts';

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);

export interface PgliteThreadOptions {
  dataDir?: string;
  loadDataDir?: Blob;
  display?: string;
  onClose?: () => void;
  /** Extension name → module exporting it under that name, loaded inside the thread. */
  extensionModules?: Record<string, string>;
  onNotice?: (message: string) => void;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type WithoutId<R> = R extends unknown ? Omit<R, 'id'> : never;

/** Test hook: the worker behind a threaded database, to prove a crash surfaces as an error. */
export const workerOf = new WeakMap<PgliteDatabase, Worker>();

/**
 * PGlite in a worker thread, behind the same Database interface as in-process PGlite. Statements
 * and PGlite's synchronous file I/O run on that thread, so this one keeps serving HTTP (a Discord
 * acknowledgement is due within 3 s) while ingestion writes. Callers are serialised here exactly as
 * in-process: one root statement or one whole transaction at a time.
 */
export async function openPgliteThread(options: PgliteThreadOptions = {}): Promise<PgliteDatabase> {
  const display = options.display ?? options.dataDir ?? 'memory';
  const workerOptions: WorkerOpenOptions = {
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: { bytes: await options.loadDataDir.arrayBuffer(), type: options.loadDataDir.type } } : {}),
    extensionModules: options.extensionModules ?? {},
    notices: Boolean(options.onNotice),
  };
  const worker = new Worker(BOOTSTRAP, {
    workerData: workerOptions,
    transferList: workerOptions.loadDataDir ? [workerOptions.loadDataDir.bytes] : [],
    // The thread's stdout would otherwise be piped through this thread, asynchronously.
    stdout: false,
    stderr: false,
  });

  const pending = new Map<number, Pending>();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let closing = false;
  let closed = false;
  let dead: AppError | undefined;
  // An idle database must not keep the process alive (in-process PGlite does not): the thread is
  // referenced only while a caller waits on it.
  const settle = () => {
    if (pending.size === 0) worker.unref();
  };

  let ready!: { resolve: () => void; reject: (error: Error) => void };
  const started = new Promise<void>((resolve, reject) => (ready = { resolve, reject }));

  const fail = (reason: string, cause?: unknown) => {
    if (dead || closed) return;
    dead = new AppError({
      code: 'DB_THREAD_DIED',
      message: `The embedded database's thread stopped (${reason}); the database in ${display} is no longer reachable from this process.`,
      nextStep: 'Restart the brain process. If it happens again, set BRAIN_PGLITE_THREAD=off to run the database on the main thread, and report the message above.',
      cause,
    });
    ready.reject(dead);
    for (const waiter of pending.values()) waiter.reject(dead);
    pending.clear();
  };

  worker.on('message', (reply: Reply) => {
    switch (reply.type) {
      case 'ready':
        return ready.resolve();
      case 'failed':
        return ready.reject(reviveError(reply.error));
      case 'notice':
        return options.onNotice?.(reply.message);
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
  worker.on('error', (error) => fail(error.message, error));
  worker.on('exit', (code) => {
    if (!closing) fail(`exit code ${code}`);
    closed = true;
  });

  const call = <T>(request: WithoutId<Request>): Promise<T> => {
    if (dead) return Promise.reject(dead);
    if (closing) return Promise.reject(new AppError({ code: 'DB_CLOSED', message: `The embedded database in ${display} is closed.`, nextStep: 'Open it again.' }));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        worker.postMessage({ ...request, id });
      } catch (error) {
        // A parameter that cannot be cloned (a function, a class with private state) fails here, alone.
        pending.delete(id);
        settle();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  };

  try {
    await started;
  } catch (error) {
    closing = true;
    await worker.terminate();
    throw error;
  }
  settle();

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
          if (!dead) await tail.then(() => call({ op: 'close' }));
        } finally {
          closing = true;
          await worker.terminate();
          options.onClose?.();
        }
      })();
      return closeOnce;
    },
  };
  workerOf.set(db, worker);
  return db;
}
