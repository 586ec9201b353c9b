import { AppError } from '@brain/errors';
import type { BrainConfig } from './types.ts';

export type ServedSurface = 'web' | 'worker metrics';

/**
 * Settings that only a process serving HTTP needs, so one-shot commands (migrate, sweep, save)
 * do not ask for them. Reported like loadConfig's own problems: every variable by name.
 */
export function checkServingConfig(config: BrainConfig, surface: ServedSurface): void {
  const problems: string[] = [];
  // A PostgreSQL deployment is reachable from the network: its queue, usage and failure counts
  // are nobody else's business. The embedded default listens on this machine only.
  if (config.mode === 'postgres' && !config.metricsToken) {
    const where = surface === 'web' ? 'GET /metrics' : 'the worker’s GET /metrics (BRAIN_METRICS_PORT)';
    problems.push(
      `BRAIN_METRICS_TOKEN: required in PostgreSQL mode (DATABASE_URL is set), because ${where} would otherwise be open to anyone who can reach it; at least 16 random characters, for example the output of \`openssl rand -hex 24\``,
    );
  }
  if (problems.length === 0) return;
  throw new AppError({
    code: 'CONFIG_INVALID',
    message: `Invalid configuration:\n  - ${problems.join('\n  - ')}`,
    nextStep: 'Set the missing variables (docs/configuration.md lists every setting), then start again.',
    details: { problems },
  });
}
