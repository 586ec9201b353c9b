// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    CHUNKING_OPTIONS_INVALID: true;
  }
}

export {};
