import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite, type Extensions, type Transaction } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { serializeError } from './cross-thread-error.ts';
import type { DumpedDataDir, Reply, Request, WorkerOpenOptions } from './protocol.ts';
import { yieldToMainThread } from '../thread-priority.ts';
import { inMemoryBlob } from '../in-memory-blob.ts';

yieldToMainThread();

// The thread that owns PGlite. Every statement, and PGlite's synchronous file I/O, runs here, so
// the application thread keeps answering HTTP while a job writes passages.
const owner = ((p) => {
  if (!p) throw new Error('worker-main runs only as a worker thread');
  return p;
})(parentPort);
const options = workerData as WorkerOpenOptions;

interface OpenTransaction {
  tx: Transaction;
  finish: (commit: boolean, endId: number) => void;
}

/** Thrown into PGlite's transaction callback to make it roll back; never reaches the caller. */
const ROLLBACK = new Error('rolled back by the caller');

async function open(): Promise<PGlite> {
  const extensions: Extensions = { vector };
  for (const [name, specifier] of Object.entries(options.extensionModules)) {
    extensions[name] = ((await import(specifier)) as Record<string, Extensions[string]>)[name] as Extensions[string];
  }
  return PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: inMemoryBlob(new Uint8Array(options.loadDataDir.bytes), options.loadDataDir.type) } : {}),
    extensions,
    ...(options.pgliteWasmModule ? { pgliteWasmModule: options.pgliteWasmModule } : {}),
  });
}

/**
 * Serves one connection: the owner's (parentPort), or another thread's (a port it sent with
 * `connect`). Each has its own transactions; PGlite's own lock runs one statement or transaction
 * of any of them at a time.
 */
function serve(pg: PGlite, port: MessagePort): void {
  const post = (reply: Reply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
  // Notices go to the owner, who asked for them; a connection's are dropped.
  const queryOptions = options.notices ? { onNotice: (notice: { message?: string }) => owner.postMessage({ type: 'notice', message: notice.message ?? '' } satisfies Reply) } : undefined;
  const transactions = new Map<number, OpenTransaction>();
  const unlisteners = new Map<number, () => Promise<void>>();

  const target = (tx: number | undefined): PGlite | Transaction => {
    if (tx === undefined) return pg;
    const open = transactions.get(tx);
    if (!open) throw new Error('Transaction is closed');
    return open.tx;
  };

  const begin = (request: Extract<Request, { op: 'begin' }>) => {
    let began = false;
    let endId = -1;
    void pg
      .transaction(async (tx) => {
        const commit = await new Promise<boolean>((resolve) => {
          transactions.set(request.tx, { tx, finish: (c, id) => ((endId = id), resolve(c)) });
          began = true;
          post({ type: 'result', id: request.id });
        });
        transactions.delete(request.tx);
        if (!commit) throw ROLLBACK;
      })
      .then(
        () => post({ type: 'result', id: endId }),
        (error: unknown) => {
          transactions.delete(request.tx);
          if (error === ROLLBACK) post({ type: 'result', id: endId });
          else post({ type: 'error', id: began ? endId : request.id, error: serializeError(error) });
        },
      );
  };

  const handle = async (request: Request): Promise<unknown> => {
    switch (request.op) {
      case 'query':
        return (await target(request.tx).query(request.text, request.params as unknown[], queryOptions)).rows;
      case 'exec':
        await target(request.tx).exec(request.script, queryOptions);
        return undefined;
      case 'listen': {
        const unlisten = await pg.listen(request.channel, (payload) => post({ type: 'notify', listener: request.listener, payload }));
        unlisteners.set(request.listener, unlisten);
        return undefined;
      }
      case 'unlisten': {
        const unlisten = unlisteners.get(request.listener);
        unlisteners.delete(request.listener);
        if (unlisten && !pg.closed) await unlisten();
        return undefined;
      }
      case 'dump': {
        const file = await pg.dumpDataDir('gzip');
        const dumped: DumpedDataDir = { bytes: await file.arrayBuffer(), name: file instanceof File ? file.name : undefined, type: file.type };
        return dumped;
      }
      case 'close':
        await pg.close();
        return undefined;
      case 'begin':
      case 'end':
      case 'connect':
        throw new Error(`unexpected ${request.op}`);
    }
  };

  if (port !== owner) {
    // A connection whose thread went away must not hold PGlite's lock with an open transaction.
    port.on('close', () => {
      for (const open of transactions.values()) open.finish(false, -1);
      for (const unlisten of unlisteners.values()) void unlisten().catch(() => undefined);
    });
  }
  port.on('message', (request: Request) => {
    if (request.op === 'connect') return serve(pg, request.port);
    if (request.op === 'begin') return begin(request);
    if (request.op === 'end') {
      const open = transactions.get(request.tx);
      if (!open) return post({ type: 'error', id: request.id, error: serializeError(new Error('Transaction is closed')) });
      return open.finish(request.commit, request.id);
    }
    handle(request).then(
      (value) => {
        const dump = request.op === 'dump' ? [(value as DumpedDataDir).bytes] : [];
        try {
          post({ type: 'result', id: request.id, value }, dump);
        } catch (error) {
          // A value that cannot be cloned fails its own statement, not the thread.
          post({ type: 'error', id: request.id, error: serializeError(error) });
        }
      },
      (error: unknown) => post({ type: 'error', id: request.id, error: serializeError(error) }),
    );
  });
}

open().then(
  (pg) => {
    serve(pg, owner);
    owner.postMessage({ type: 'ready' } satisfies Reply);
  },
  (error: unknown) => owner.postMessage({ type: 'failed', error: serializeError(error) } satisfies Reply),
);
