import { AppError, isAppError, type AppErrorOptions } from '@brain/errors';
import type { WireError } from './protocol.ts';

export function toWire(error: unknown): WireError {
  if (isAppError(error)) {
    const details = cloneable(error.details);
    return {
      app: true,
      name: error.name,
      message: error.message,
      stack: error.stack,
      fields: { code: error.code, userMessage: error.userMessage, nextStep: error.nextStep, httpStatus: error.httpStatus, retryable: error.retryable, ...(details ? { details } : {}) },
    };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { app: false, name: e.name, message: e.message, stack: e.stack, fields: {} };
}

/** The same AppError (code, messages, details) on this side, so callers' `isAppError` checks hold. */
export function fromWire(wire: WireError): Error {
  const error = wire.app
    ? new AppError({ ...(wire.fields as Omit<AppErrorOptions, 'message'>), message: wire.message })
    : Object.assign(new Error(wire.message), { name: wire.name });
  if (wire.stack) error.stack = `${wire.stack}\n    at (the answering thread)`;
  return error;
}

function cloneable(value: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!value) return undefined;
  try {
    return structuredClone(value);
  } catch {
    // Details that cannot cross (a function, a handle) are dropped rather than the error.
    return undefined;
  }
}
