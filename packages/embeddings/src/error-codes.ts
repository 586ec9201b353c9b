// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    EMBEDDING_ABORTED: true;
    EMBEDDING_AUTH_FAILED: true;
    EMBEDDING_DIMENSION_MISMATCH: true;
    EMBEDDING_FAILED: true;
    EMBEDDING_MODEL_MISMATCH: true;
    EMBEDDING_MODEL_NOT_FOUND: true;
    EMBEDDING_MODEL_UNKNOWN: true;
    EMBEDDING_PROVIDER_UNAVAILABLE: true;
    EMBEDDING_QUOTA_EXCEEDED: true;
    EMBEDDING_RATE_LIMITED: true;
    EMBEDDING_REQUEST_INVALID: true;
    EMBEDDING_RESPONSE_INVALID: true;
  }
}

export {};
