import { loadConfig, type BrainConfig } from '@brain/config';
import { isAppError } from '@brain/errors';

export interface LenientConfig {
  config: BrainConfig | undefined;
  /** Every problem loadConfig reported, as `NAME: what is wrong`. */
  problems: string[];
  /** The configuration's own advice when it could not be read at all. */
  nextStep?: string | undefined;
}

/**
 * The configuration with the refused values left out, so one bad setting (a mistyped Discord
 * key) does not hide what the rest of the checks would find. A value that needs another one
 * ("required when STRIPE_SECRET_KEY is set") is left out together with the one that needs it.
 */
export function readConfigLeniently(env: Record<string, string | undefined>, cwd: string): LenientConfig {
  const problems: string[] = [];
  const pruned = { ...env };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return { config: loadConfig(pruned, { cwd }), problems };
    } catch (error) {
      if (!isAppError(error, 'CONFIG_INVALID')) throw error;
      const found = (error.details as { problems?: string[] } | undefined)?.problems ?? [error.message];
      problems.push(...found.filter((p) => !problems.includes(p)));
      for (const problem of found) {
        const name = /^([A-Z][A-Z0-9_]*):/.exec(problem)?.[1];
        const needs = /required when ([A-Z][A-Z0-9_]*) is set/.exec(problem)?.[1];
        if (name) delete pruned[name];
        if (needs) delete pruned[needs];
        if (!name) return { config: undefined, problems, nextStep: error.nextStep };
      }
    }
  }
  return { config: undefined, problems };
}
