import type { Logger } from '@brain/observability';
import { guardDriverWriteAfterClose } from './driver-guard.ts';

/**
 * SIGTERM (Render, Docker) and SIGINT (Ctrl-C) drain the process: stop taking work, finish what
 * is in flight, close the database. A second signal exits at once.
 */
export function onShutdown(logger: Logger, drain: () => Promise<void>): void {
  let draining = false;
  let exitCode = 0;
  const handler = (signal: NodeJS.Signals) => {
    if (draining) {
      logger.warn({ signal }, 'second signal: exiting without draining');
      process.exit(1);
    }
    draining = true;
    logger.info({ signal }, 'shutting down: draining in-flight work');
    drain().then(
      () => {
        logger.info('shutdown complete');
        process.exit(exitCode);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  // A pooled connection the driver cannot use again: drain as for SIGTERM, then exit 1 to be restarted.
  guardDriverWriteAfterClose(
    (error) => {
      logger.error({ err: error.cause, code: error.code, next: error.nextStep }, error.message);
      if (draining) return;
      exitCode = 1;
      handler('SIGTERM');
    },
    // Anything else is as fatal as without the guard, its stack in the log.
    (error) => {
      logger.fatal({ err: error }, 'uncaught exception');
      process.exit(1);
    },
  );
}
