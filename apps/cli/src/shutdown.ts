import type { Logger } from '@brain/observability';

/**
 * SIGTERM (Render, Docker) and SIGINT (Ctrl-C) drain the process: stop taking work, finish what
 * is in flight, close the database. A second signal exits at once.
 */
export function onShutdown(logger: Logger, drain: () => Promise<void>): void {
  let draining = false;
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
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
