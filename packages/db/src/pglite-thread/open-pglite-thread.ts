import { readFile } from 'node:fs/promises';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { PGliteOptions } from '@electric-sql/pglite';
import type { Database } from '../database.ts';
import type { PgliteDatabase } from '../open-pglite.ts';
import { reviveError } from './cross-thread-error.ts';
import { createPortClient } from './port-client.ts';
import type { Reply, WorkerOpenOptions } from './protocol.ts';

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

/** Test hook: the worker behind a threaded database, to prove a crash surfaces as an error. */
export const workerOf = new WeakMap<PgliteDatabase, Worker>();

type CompiledWasm = NonNullable<PGliteOptions['pgliteWasmModule']>;
// The ES2023 lib declares no WebAssembly global; Node has one.
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> } }).WebAssembly;
let compiledPglite: Promise<CompiledWasm> | undefined;

/**
 * PGlite's WebAssembly, compiled once per process and handed to each thread (a compiled module
 * crosses threads without copying): every new thread compiled its 9 MB again, about 0.9 of the
 * 3.5 CPU seconds a thread's database cost to open. One thread per `brain start`, but a test
 * process opens one per suite.
 */
function pgliteWasmModule(): Promise<CompiledWasm> {
  compiledPglite ??= readFile(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite'))).then((bytes) => wasm.compile(bytes));
  return compiledPglite;
}

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
    // Copied to the thread, not transferred: `arrayBuffer()` of an in-memory Blob is its caller's
    // bytes, which a transfer would empty (a template Blob may open a second database).
    ...(options.loadDataDir ? { loadDataDir: { bytes: await options.loadDataDir.arrayBuffer(), type: options.loadDataDir.type } } : {}),
    extensionModules: options.extensionModules ?? {},
    notices: Boolean(options.onNotice),
    pgliteWasmModule: await pgliteWasmModule(),
  };
  const worker = new Worker(BOOTSTRAP, {
    workerData: workerOptions,
    // The thread's stdout would otherwise be piped through this thread, asynchronously.
    stdout: false,
    stderr: false,
  });

  let ready!: { resolve: () => void; reject: (error: Error) => void };
  const started = new Promise<void>((resolve, reject) => (ready = { resolve, reject }));
  let replies: ((reply: Reply) => void) | undefined;
  let closed = false;
  // An idle database must not keep the process alive (in-process PGlite does not): the thread is
  // referenced only while a caller waits on it.
  const client = createPortClient(
    {
      post: (message) => worker.postMessage(message),
      onReply: (handler) => (replies = handler),
      ref: () => worker.ref(),
      unref: () => worker.unref(),
      end: async () => {
        await worker.terminate();
      },
    },
    display,
    { closesDatabase: true, ...(options.onClose ? { onClose: options.onClose } : {}) },
  );

  worker.on('message', (reply: Reply) => {
    switch (reply.type) {
      case 'ready':
        return ready.resolve();
      case 'failed':
        return ready.reject(reviveError(reply.error));
      case 'notice':
        return options.onNotice?.(reply.message);
      default:
        return replies?.(reply);
    }
  });
  const fail = (reason: string, cause?: unknown) => {
    if (closed) return;
    ready.reject(client.fail(reason, cause));
  };
  worker.on('error', (error) => fail(error.message, error));
  worker.on('exit', (code) => {
    if (!client.closing) fail(`exit code ${code}`);
    closed = true;
  });

  try {
    await started;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.unref();
  workerOf.set(client.db, worker);
  return client.db;
}

/**
 * A connection of its own to a threaded PGlite, for another thread of this process (one that
 * answers questions, say): its statements go straight to the database's thread, not through this
 * one. Transfer the port to that thread and open it there with `connectPgliteThread`. Undefined
 * when `db` is not PGlite in a thread (in-process PGlite cannot be reached from another thread).
 */
export function pgliteThreadPort(db: Database): MessagePort | undefined {
  const worker = workerOf.get(db as PgliteDatabase);
  if (!worker) return undefined;
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ op: 'connect', port: port2 }, [port2]);
  return port1;
}

/** The Database over a port from `pgliteThreadPort`; closing it closes the port, not the database. */
export function connectPgliteThread(port: MessagePort, display = 'embedded database (connection)'): PgliteDatabase {
  let replies: ((reply: Reply) => void) | undefined;
  let ended = false;
  const client = createPortClient(
    {
      post: (message) => port.postMessage(message),
      onReply: (handler) => (replies = handler),
      ref: () => port.ref(),
      unref: () => port.unref(),
      end: async () => {
        ended = true;
        port.close();
      },
    },
    display,
    { closesDatabase: false },
  );
  port.on('message', (reply: Reply) => replies?.(reply));
  // The database's thread ended (or its owner closed it): nothing more can be answered here.
  port.on('close', () => {
    if (!ended) client.fail('its connection closed');
  });
  port.unref();
  return client.db;
}
