// The AppError codes this package throws (see @brain/errors' error-codes.ts).
declare module '@brain/errors' {
  interface ErrorCodes {
    LEASE_LOST: true;
    METRICS_PORT_IN_USE: true;
    SYNC_NEEDS_BOT_TOKEN: true;
    UNKNOWN_TASK: true;
    WORKER_STOPPING: true;
  }
}

export {};
