import { messages } from '@electric-sql/pglite';
import type { SerializedError } from './protocol.ts';

const STANDARD = new Set(['name', 'message', 'stack', 'length']);

/**
 * structuredClone keeps an Error's message but drops its own fields, and the codebase reads
 * `code` (SQLSTATE), `constraint`, `detail` … from database errors: copy every field that can be
 * cloned, so the error on this side of the boundary carries what PGlite put on it.
 */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) {
    return { kind: 'error', name: 'Error', message: typeof error === 'string' ? error : String(error), stack: undefined, fields: {} };
  }
  const fields: Record<string, unknown> = {};
  for (const key of Object.getOwnPropertyNames(error)) {
    if (STANDARD.has(key)) continue;
    const value = (error as unknown as Record<string, unknown>)[key];
    try {
      fields[key] = structuredClone(value);
    } catch {
      // A field that cannot cross (a function, a handle) is left behind rather than losing the error.
    }
  }
  const isDatabase = error instanceof messages.DatabaseError;
  return {
    kind: isDatabase ? 'database' : 'error',
    name: error.name,
    message: error.message,
    stack: error.stack,
    ...(isDatabase ? { length: error.length } : {}),
    fields,
  };
}

/** The same class callers get from in-process PGlite (DatabaseError for SQL errors), with the same fields. */
export function reviveError(serialized: SerializedError): Error {
  const error =
    serialized.kind === 'database'
      ? new messages.DatabaseError(serialized.message, serialized.length ?? 0, serialized.name as messages.MessageName)
      : Object.assign(new Error(serialized.message), { name: serialized.name });
  Object.assign(error, serialized.fields);
  if (serialized.stack) error.stack = `${serialized.stack}\n    at (the embedded database's thread)`;
  return error;
}
