// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    DB_CLOSED: true;
    DB_CONNECTION_LOST: true;
    DB_LOCKED: true;
    DB_THREAD_DIED: true;
    DB_UNREACHABLE: true;
    EMBEDDING_DIMENSION_MISMATCH: true;
    EMBEDDING_INVALID: true;
    MIGRATION_CONNECTION_LOST: true;
    MIGRATION_EDITED: true;
    MIGRATION_FAILED: true;
    MIGRATION_WRONG_ROLE: true;
    PGVECTOR_MISSING: true;
    PGVECTOR_TOO_OLD: true;
    WORKSPACE_ID_INVALID: true;
  }
}

export {};
