import { PGlite, type Extensions, type Transaction } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { Database, Queryable, Row } from './database.ts';

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
}

export interface PgliteDatabase extends Database {
  readonly kind: 'pglite';
  /** The tarball of the data directory, for templates (see packages/testkit). */
  dumpDataDir(): Promise<Blob>;
}

export async function openPglite(options: PgliteOptions = {}): Promise<PgliteDatabase> {
  const pg = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { vector, ...options.extraExtensions },
  });
  const queryOptions = options.onNotice
    ? { onNotice: (notice: { message?: string }) => options.onNotice?.(notice.message ?? '') }
    : undefined;
  let closed = false;
  const wrap = (target: PGlite | Transaction): Queryable => ({
    async query<T extends Row = Row>(text: string, params: readonly unknown[] = []) {
      const result = await target.query<T>(text, params as unknown[], queryOptions);
      return result.rows;
    },
    async exec(script: string) {
      await target.exec(script, queryOptions);
    },
  });
  const root = wrap(pg);
  return {
    kind: 'pglite',
    display: options.display ?? options.dataDir ?? 'memory',
    query: root.query,
    exec: root.exec,
    // PGlite serialises transactions against every other query on the instance, so a transaction
    // here is as isolated as one on a dedicated PostgreSQL connection.
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
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
