import type { DoctorCheck } from '../check.ts';
import { fail, pass } from '../check.ts';

/** Problems that a check of their own explains better. */
const EXPLAINED_ELSEWHERE = ['DISCORD_PUBLIC_KEY:', 'STRIPE_WEBHOOK_SECRET:'];

export function configurationCheck(problems: string[], nextStep: string | undefined): DoctorCheck {
  return {
    id: 'configuration',
    title: 'Configuration',
    async run(ctx) {
      const own = problems.filter((p) => !EXPLAINED_ELSEWHERE.some((prefix) => p.startsWith(prefix)));
      if (own.length > 0) {
        return fail(own.join('; '), nextStep ?? 'Fix these variables (docs/configuration.md lists every setting), then run `brain doctor` again.');
      }
      const config = ctx.config;
      if (!config) return fail('the configuration could not be read', nextStep ?? 'Fix the variables above, then run `brain doctor` again.');
      return pass(
        `${config.mode} mode, database ${config.database.display}, embeddings ${config.embedding.provider} (${config.embedding.model}), answers ${config.chat.provider}${config.chat.model ? ` (${config.chat.model})` : ''}`,
      );
    },
  };
}
