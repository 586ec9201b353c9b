import type { Logger } from '@brain/observability';
import { failWith, type CheckResult, type DoctorCheck, type DoctorContext } from './check.ts';
import { configurationCheck } from './checks/configuration.ts';
import { databaseReachableCheck } from './checks/database-reachable.ts';
import { discordBotTokenCheck } from './checks/discord-bot-token.ts';
import { discordPublicKeyCheck } from './checks/discord-public-key.ts';
import { discordSyncedChannelsCheck } from './checks/discord-synced-channels.ts';
import { embeddingDimensionCheck } from './checks/embedding-dimension.ts';
import { embeddingModelCheck } from './checks/embedding-model.ts';
import { migrationsCheck } from './checks/migrations.ts';
import { pgvectorCheck } from './checks/pgvector-version.ts';
import { publicUrlCheck } from './checks/public-url.ts';
import { rowLevelSecurityCheck } from './checks/row-level-security.ts';
import { stripeWebhookSecretCheck } from './checks/stripe-webhook-secret.ts';
import { readConfigLeniently } from './read-config-leniently.ts';

export interface DoctorReport {
  ok: boolean;
  checks: (CheckResult & { id: string; title: string })[];
}

export interface DoctorOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  logger: Logger;
  timeoutMs?: number;
}

/** Runs every check in order (each one even when an earlier one failed) and closes what it opened. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const { config, problems, nextStep } = readConfigLeniently(options.env, options.cwd);
  const ctx: DoctorContext = { env: options.env, config, db: undefined, schemaCurrent: false, logger: options.logger, timeoutMs: options.timeoutMs ?? 5_000 };
  const checks: DoctorCheck[] = [
    configurationCheck(problems, nextStep),
    databaseReachableCheck,
    pgvectorCheck,
    migrationsCheck,
    rowLevelSecurityCheck,
    embeddingDimensionCheck,
    embeddingModelCheck,
    discordPublicKeyCheck,
    discordBotTokenCheck,
    discordSyncedChannelsCheck,
    stripeWebhookSecretCheck,
    publicUrlCheck,
  ];
  const results: DoctorReport['checks'] = [];
  try {
    for (const check of checks) {
      const result = await check.run(ctx).catch((error: unknown) => failWith(error, 'Run with BRAIN_DEBUG=1 for the stack trace.'));
      results.push({ id: check.id, title: check.title, ...result });
    }
  } finally {
    await ctx.db?.close();
  }
  return { ok: results.every((r) => r.status !== 'fail'), checks: results };
}
