// The AppError codes this package throws (see @brain/errors' error-codes.ts).
import type { FetchErrorCode } from './fetch-errors.ts';

declare module '@brain/errors' {
  interface ErrorCodes extends Record<FetchErrorCode, true> {
    CONFIG_INVALID: true;
  }
}
