export { createLogger, REDACTED_PATHS, type CreateLoggerOptions, type Logger } from './logger.ts';
