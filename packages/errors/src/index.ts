export { AppError, isAppError, type AppErrorOptions } from './app-error.ts';
export { coerceError } from './coerce-error.ts';
export type { ErrorCode, ErrorCodes } from './error-codes.ts';
