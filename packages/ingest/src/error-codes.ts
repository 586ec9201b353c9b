// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    ARTIFACT_GONE: true;
    CURSOR_INVALID: true;
    /** An everyone_flags job whose facts or passages kept changing under it: retried. */
    EVERYONE_FLAGS_UNSETTLED: true;
    EXTRACT_EMPTY: true;
    /** The fetcher's, which the pipeline is handed: the retry policy retries it once per host. */
    FETCH_TIMEOUT: true;
    INGEST_THREAD_DIED: true;
    JOB_INVALID: true;
    LEASE_LOST: true;
    SAVE_EMPTY: true;
    SAVE_INVALID_URL: true;
    SAVE_RATE_LIMITED_MEMBER: true;
    SAVE_RATE_LIMITED_WORKSPACE: true;
    SAVE_TOO_LARGE: true;
    SAVE_UNSUPPORTED_TYPE: true;
    SOURCE_FORGOTTEN: true;
    SOURCE_NOT_FORGOTTEN: true;
    SOURCE_NOT_FOUND: true;
    THREAD_BODY_INVALID: true;
    THREAD_CHUNKING_UNAVAILABLE: true;
  }
}

export {};
