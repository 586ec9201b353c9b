import type {} from './error-codes.ts';
export { startWorker, type WorkerHandle, type WorkerOptions } from './worker.ts';
export { sweep, scheduleSweeper, type SweepOptions, type SweepResult } from './sweeper.ts';
export { tasks, type Task } from './tasks/index.ts';
export { startMetricsServer, type MetricsServer, type MetricsServerOptions } from './metrics-server.ts';
