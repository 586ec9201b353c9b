/** Messages between the application thread and the thread that runs PGlite. */
import type { MessagePort } from 'node:worker_threads';
import type { PGliteOptions } from '@electric-sql/pglite';

/** What the worker needs to open the database: plain data only, it crosses a thread boundary. */
export interface WorkerOpenOptions {
  dataDir?: string;
  loadDataDir?: { bytes: ArrayBuffer; type: string };
  /** Extension name → module that exports it under that name (Extension objects cannot be posted). */
  extensionModules: Record<string, string>;
  notices: boolean;
  /** PGlite's WebAssembly, already compiled by the opening thread (see openPgliteThread). */
  pgliteWasmModule?: PGliteOptions['pgliteWasmModule'];
}

export type Request =
  | { op: 'query'; id: number; tx?: number; text: string; params: readonly unknown[] }
  | { op: 'exec'; id: number; tx?: number; script: string }
  | { op: 'begin'; id: number; tx: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'listen'; id: number; listener: number; channel: string }
  | { op: 'unlisten'; id: number; listener: number }
  | { op: 'dump'; id: number }
  | { op: 'close'; id: number }
  /** Another thread's connection: the thread serves `port` too (owner only). */
  | { op: 'connect'; id?: undefined; port: MessagePort };

/** An error as it crossed the boundary: every field PostgreSQL sent (code, detail, constraint …) kept. */
export interface SerializedError {
  kind: 'database' | 'error';
  name: string;
  message: string;
  stack: string | undefined;
  /** DatabaseError's constructor argument. */
  length?: number;
  fields: Record<string, unknown>;
}

export type Reply =
  | { type: 'ready' }
  | { type: 'failed'; error: SerializedError }
  | { type: 'result'; id: number; value?: unknown }
  | { type: 'error'; id: number; error: SerializedError }
  | { type: 'notice'; message: string }
  | { type: 'notify'; listener: number; payload: string };

export interface DumpedDataDir {
  bytes: ArrayBuffer;
  name: string | undefined;
  type: string;
}
