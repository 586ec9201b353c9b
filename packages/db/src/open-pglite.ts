import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite, type Extensions, type Transaction } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { Database, Queryable, Row } from './database.ts';
import { openPgliteThread } from './pglite-thread/open-pglite-thread.ts';

export interface PgliteOptions {
  /** A directory for a persistent database; omit for an in-memory one. */
  dataDir?: string;
  /** A tarball from `dumpPgliteDataDir`, to start from a migrated template. */
  loadDataDir?: Blob;
  display?: string;
  /** Runs when the database closes (the data-dir lock is released here). */
  onClose?: () => void;
  /** More extensions than pgvector (tests load auto_explain to see the plans inside functions). */
  extraExtensions?: Extensions;
  /** Receives NOTICE messages sent to the client. */
  onNotice?: (message: string) => void;
  /**
   * Run PGlite in a worker thread (see pglite-thread/), so its statements and synchronous file
   * I/O leave the caller's thread. Extensions must then be named by module (`extensionModules`).
   */
  thread?: boolean;
  /** With `thread`: extension name → module that exports it under that name. */
  extensionModules?: Record<string, string>;
}

export interface PgliteDatabase extends Database {
  readonly kind: 'pglite';
  /** The tarball of the data directory, for templates (see packages/testkit). */
  dumpDataDir(): Promise<Blob>;
}

export async function openPglite(options: PgliteOptions = {}): Promise<PgliteDatabase> {
  if (options.thread) {
    if (options.extraExtensions) throw new Error('openPglite: with `thread`, name extensions by module in `extensionModules`');
    return openPgliteThread(options);
  }
  if (options.extensionModules) {
    for (const [name, specifier] of Object.entries(options.extensionModules)) {
      options = { ...options, extraExtensions: { ...options.extraExtensions, [name]: ((await import(specifier)) as Extensions)[name] as Extensions[string] } };
    }
  }
  const pg = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { vector, ...options.extraExtensions },
  });
  const queryOptions = options.onNotice
    ? { onNotice: (notice: { message?: string }) => options.onNotice?.(notice.message ?? '') }
    : undefined;
  let closed = false;
  // PGlite runs every statement synchronously on this thread and queues concurrent callers behind
  // one lock, releasing each to the next without ever returning to the event loop: twenty queued
  // statements (a worker job, a few answers) would hold every HTTP request, and a Discord
  // acknowledgement is due within 3 s. So callers queue here instead, and each statement starts on
  // a fresh turn of the event loop: pending I/O runs between any two statements.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(() => nextTurn()).then(fn);
    tail = run.catch(() => undefined);
    return run;
  };
  const wrap = (target: PGlite | Transaction, serialise: boolean): Queryable => {
    const turn = <T>(fn: () => Promise<T>): Promise<T> => (serialise ? exclusive(fn) : nextTurn().then(fn));
    return {
      query: <T extends Row = Row>(text: string, params: readonly unknown[] = []) =>
        turn(async () => (await target.query<T>(text, params as unknown[], queryOptions)).rows),
      exec: (script: string) =>
        turn(async () => {
          await target.exec(script, queryOptions);
        }),
    };
  };
  const root = wrap(pg, true);
  return {
    kind: 'pglite',
    display: options.display ?? options.dataDir ?? 'memory',
    query: root.query,
    exec: root.exec,
    // PGlite serialises transactions against every other query on the instance, so a transaction
    // here is as isolated as one on a dedicated PostgreSQL connection.
    // Inside a transaction statements yield a turn but do not queue: the transaction holds the line.
    transaction: (fn) => exclusive(() => pg.transaction((tx) => fn(wrap(tx, false)))),
    async listen(channel, onPayload) {
      const unlisten = await pg.listen(channel, onPayload);
      return async () => {
        if (!closed) await unlisten();
      };
    },
    async dumpDataDir() {
      return pg.dumpDataDir('gzip');
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await pg.close();
      } finally {
        options.onClose?.();
      }
    },
  };
}
