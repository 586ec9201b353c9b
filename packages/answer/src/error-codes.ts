// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    ANSWER_MODEL_AUTH: true;
    ANSWER_MODEL_EMPTY: true;
    ANSWER_MODEL_FAILED: true;
    ANSWER_MODEL_NOT_FOUND: true;
    ANSWER_MODEL_RATE_LIMITED: true;
    ANSWER_MODEL_TIMEOUT: true;
    ANSWER_MODEL_UNREACHABLE: true;
    EMBEDDING_DIMENSION_MISMATCH: true;
    EMBEDDING_FAILED: true;
    EMBEDDING_TIMEOUT: true;
    QUESTION_EMPTY: true;
    QUESTION_TOO_LONG: true;
    SEARCH_TIMEOUT: true;
    WORKSPACE_NOT_FOUND: true;
  }
}

export {};
