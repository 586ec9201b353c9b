import { loadConfig, type BrainConfig } from '@brain/config';
import { openDatabase, type Database } from '@brain/db';
import { createLogger, type Logger } from '@brain/observability';

/**
 * The one place the process environment is read. Everything below receives the parsed config.
 */
export function readConfig(): BrainConfig {
  return loadConfig(process.env, { cwd: process.cwd() });
}

export function isDebug(): boolean {
  return Boolean(process.env.BRAIN_DEBUG);
}

export function cliLogger(config: BrainConfig, name: string): Logger {
  return createLogger({ level: config.logLevel, name });
}

export async function openConfiguredDatabase(config: BrainConfig, command: string): Promise<Database> {
  return openDatabase(config.database, { command: `brain ${command}` });
}
