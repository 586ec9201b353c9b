/**
 * Every AppError code. The package that throws a code declares it, by augmenting this interface in
 * its own `src/error-codes.ts`:
 *
 *   declare module '@brain/errors' { interface ErrorCodes { FETCH_TIMEOUT: true } }
 *
 * A code that no package declares is then a type error wherever it is thrown or compared
 * (`isAppError(e, 'EMBEDDING_DIMENSIONS_MISMATCH')` fails the typecheck instead of never matching).
 * Codes are stable: the job queue and the `queries` table store them, and users read them.
 */
export interface ErrorCodes {
  /** An error that was not an AppError, wrapped by `coerceError`. */
  INTERNAL: true;
}

export type ErrorCode = keyof ErrorCodes;
