// The AppError codes this package throws (see @brain/errors' error-codes.ts).
import type { ExtractErrorCode } from './extract-errors.ts';

declare module '@brain/errors' {
  // Every ExtractErrorCode, listed once in extract-errors.ts.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<ExtractErrorCode, true> {}
}
