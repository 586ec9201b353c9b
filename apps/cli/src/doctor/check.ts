import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { coerceError } from '@brain/errors';
import type { Logger } from '@brain/observability';

/** A warning does not fail the report: the deployment works, but less safely than it could. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  status: CheckStatus;
  /** What was found, in one line (never a secret). */
  detail: string;
  /** For a failure or a warning: what to do about it. */
  nextStep?: string;
}

/** What the checks share. Checks run in order; the database check opens `db` for those after it. */
export interface DoctorContext {
  /** The environment as given, for checks of values the configuration refused. */
  env: Record<string, string | undefined>;
  /** The configuration, read without the values it refused (undefined if even that failed). */
  config: BrainConfig | undefined;
  db: Database | undefined;
  /** Set by the migrations check: every migration is applied, so table queries mean something. */
  schemaCurrent: boolean;
  /** Set by the bot token check: Discord accepted DISCORD_BOT_TOKEN, so channel reads mean something. */
  botTokenAccepted?: boolean;
  logger: Logger;
  /** Network probes (the embedding provider, the public URL) give up after this long. */
  timeoutMs: number;
}

export interface DoctorCheck {
  id: string;
  title: string;
  run(ctx: DoctorContext): Promise<CheckResult>;
}

export const pass = (detail: string): CheckResult => ({ status: 'pass', detail });
export const skip = (detail: string): CheckResult => ({ status: 'skip', detail });
export const fail = (detail: string, nextStep: string): CheckResult => ({ status: 'fail', detail, nextStep });
export const warn = (detail: string, nextStep: string): CheckResult => ({ status: 'warn', detail, nextStep });

/** An error as a failed check: its message, and its next step (or the one given). */
export function failWith(error: unknown, fallbackNextStep: string): CheckResult {
  const appError = coerceError(error);
  return fail(appError.message, appError.nextStep ?? fallbackNextStep);
}

export const needsDatabase = skip('skipped: the database is not reachable (see above)');
export const needsSchema = skip('skipped: the schema is not current (see above)');
export const needsConfig = skip('skipped: the configuration could not be read (see above)');
