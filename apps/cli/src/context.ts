import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type BrainConfig } from '@brain/config';
import { AppError } from '@brain/errors';
import { migrate, openDatabase, pendingMigrations, setHelperThreadPriority, type Database } from '@brain/db';
import { createLogger, type Logger } from '@brain/observability';
import { pino } from 'pino';

/**
 * The one place the process environment is read. Everything below receives the parsed config,
 * except the helper threads' priority: every thread the command starts inherits it from here.
 * Helper threads give way (BRAIN_HELPER_THREAD_PRIORITY) only in a process that acknowledges
 * interactions (`brain start`), where an acknowledgement could wait behind them. Anywhere else
 * giving way only slows the command down on a busy machine, with nothing to protect.
 */
export function readConfig(options: { acknowledgesInteractions?: boolean } = {}): BrainConfig {
  const config = loadConfig(process.env, { cwd: process.cwd() });
  setHelperThreadPriority(options.acknowledgesInteractions ? config.helperThreadPriority : 'normal');
  return config;
}

/** The raw environment, for `brain doctor`, which also inspects values the configuration refuses. */
export function readEnvironment(): Record<string, string | undefined> {
  return { ...process.env };
}

/**
 * The extraction sandbox's environment: empty (a parser has no business seeing secrets) but for
 * the compiled entries a compiled `brain` recorded (apps/cli/bin/brain.js), so the sandbox starts
 * compiled too.
 */
export function sandboxEnvironment(): Record<string, string> {
  const compiled = process.env.BRAIN_COMPILED_ENTRIES;
  return compiled ? { BRAIN_COMPILED_ENTRIES: compiled } : {};
}

export function isDebug(): boolean {
  return Boolean(process.env.BRAIN_DEBUG);
}

/**
 * Servers log at LOG_LEVEL (info by default) to stdout. One-shot commands print their results on
 * stdout, so their logs go to stderr, and only warnings unless LOG_LEVEL asks for more.
 */
export function cliLogger(config: BrainConfig, name: string, kind: 'server' | 'command' = 'command'): Logger {
  if (kind === 'server') return createLogger({ level: config.logLevel, name });
  return createLogger({ level: config.logLevelSet ? config.logLevel : 'warn', name, destination: pino.destination(2) });
}

/**
 * Opens the configured database with its schema current. The embedded database is this
 * installation's own, so it is migrated on open; a shared PostgreSQL is migrated on purpose
 * (`brain migrate`, a deploy step), and a command refuses to run against an older schema.
 */
export async function openConfiguredDatabase(config: BrainConfig, command: string, options: { migrate?: boolean } = {}): Promise<Database> {
  const db = await openDatabase(config.database, { command: `brain ${command}` });
  try {
    if (config.database.kind === 'pglite' || options.migrate) {
      await migrate(db);
    } else {
      const pending = await pendingMigrations(db);
      if (pending.length > 0) {
        throw new AppError({
          code: 'SCHEMA_OUT_OF_DATE',
          message: `The database at ${db.display} is missing ${pending.length} migration(s), starting with ${pending[0]}.`,
          nextStep: 'Run `brain migrate` (a deploy runs it before starting the service), then try again.',
        });
      }
    }
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * BRAIN_COOKIE_SECRET, or a stand-in: embedded mode keeps a generated one in BRAIN_DATA_DIR so
 * links and forms survive a restart; a PostgreSQL deployment that installs or bills must set
 * it (several instances and restarts need the same one); anything else gets a random one for
 * this process, with a warning.
 */
export function resolveCookieSecret(config: BrainConfig, logger: Logger): string {
  if (config.cookieSecret) return config.cookieSecret;
  if (config.mode === 'embedded') {
    const file = path.join(config.dataDir, 'cookie-secret');
    try {
      const existing = fs.readFileSync(file, 'utf8').trim();
      if (existing.length >= 32) return existing;
    } catch {
      // Not there yet: create it below.
    }
    const secret = randomBytes(32).toString('hex');
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
  if (config.discord.installConfigured || config.stripe.enabled) {
    throw new AppError({
      code: 'CONFIG_INVALID',
      message: 'BRAIN_COOKIE_SECRET is not set, and install or billing is configured.',
      nextStep: 'Set BRAIN_COOKIE_SECRET to 32+ random characters (openssl rand -hex 32), the same on every instance.',
    });
  }
  logger.warn('BRAIN_COOKIE_SECRET is not set: forms and links signed now stop working at the next restart');
  return randomBytes(32).toString('hex');
}
