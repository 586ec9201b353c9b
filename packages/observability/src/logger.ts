import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Paths that may carry a secret anywhere in a log line. Redaction is by key, so a new field named
 * like these is covered without anyone remembering to add it.
 */
export const REDACTED_PATHS = [
  'password',
  'token',
  'secret',
  'apiKey',
  'api_key',
  'authorization',
  'cookie',
  'databaseUrl',
  '*.password',
  '*.token',
  '*.secret',
  '*.apiKey',
  '*.api_key',
  '*.authorization',
  '*.cookie',
  '*.databaseUrl',
  '*.url',
  // Config-shaped objects (config.stripe.secretKey, config.discord.botToken): named secrets, one and two levels down.
  ...['secretKey', 'webhookSecret', 'botToken', 'clientSecret', 'serviceRoleKey', 'cookieSecret', 'mcpToken', 'metricsToken'].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  '*.*.apiKey',
  '*.*.url',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-signature-ed25519"]',
  'req.headers["stripe-signature"]',
];

export interface CreateLoggerOptions {
  level: LoggerOptions['level'];
  name?: string;
  /** Where lines go (defaults to stdout); tests pass a stream to read them back. */
  destination?: pino.DestinationStream;
}

/** JSON lines, one logger per process; packages receive children of it, never a global. */
export function createLogger(options: CreateLoggerOptions): Logger {
  const base: LoggerOptions = {
    level: options.level ?? 'info',
    ...(options.name ? { name: options.name } : {}),
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
  };
  return options.destination ? pino(base, options.destination) : pino(base);
}
