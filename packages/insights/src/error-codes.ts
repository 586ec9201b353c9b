// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    CURSOR_INVALID: true;
    WORKSPACE_NOT_FOUND: true;
  }
}

export {};
