// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    EVAL_PAGE_MISSING: true;
    EVAL_QUESTIONS_INVALID: true;
  }
}

export {};
