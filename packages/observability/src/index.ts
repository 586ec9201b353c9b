export { createLogger, REDACTED_PATHS, type CreateLoggerOptions, type Logger } from './logger.ts';
export { lazyChild } from './lazy-child.ts';
export { createMetrics, type BrainMetrics, type DatabaseSnapshot, type InteractionMetrics, type JobMetrics } from './metrics.ts';
export { bearerTokenCheck } from './bearer-token.ts';
