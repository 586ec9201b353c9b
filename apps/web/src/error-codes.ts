// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    AUDIENCE_INVALID: true;
    COOKIES_MISSING: true;
    CSRF_REFUSED: true;
    HOST_NOT_ALLOWED: true;
    ORIGIN_NOT_ALLOWED: true;
    PLAYGROUND_REQUEST_INVALID: true;
    PLAYGROUND_VIEWER_MISSING: true;
  }
}

export {};
