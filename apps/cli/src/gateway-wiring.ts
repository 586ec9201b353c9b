import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { createCachedGuildFacts, createDiscordApi, startGatewayRunner, type AskFunction, type EntitlementCheck, type GatewayRunner } from '@brain/discord';
import type { Logger } from '@brain/observability';
import { resolveCookieSecret } from './context.ts';
import { buildOnboarding } from './onboarding.ts';
import { print } from './output.ts';
import { buildAnswering } from './services/answering.ts';
import { buildEntitlementCheck } from './services/entitlements.ts';
import { buildEmbedder } from './services/ingest.ts';

export interface GatewayWiringInput {
  config: BrainConfig;
  db: Database;
  logger: Logger;
  /** `brain start` passes its own; `brain worker` has none, and they are built here. */
  ask?: AskFunction | undefined;
  checkEntitlement?: EntitlementCheck | undefined;
}

/**
 * The Gateway connection for auto-answers, where jobs run (`brain worker`, `brain start` with its
 * worker). Without DISCORD_BOT_TOKEN there is no connection to make: undefined. With one, every
 * process runs the runner and the database lease picks the one that connects; it stays closed
 * while no channel has /autoanswer on.
 */
export function startGateway(input: GatewayWiringInput): GatewayRunner | undefined {
  const { config, db, logger } = input;
  const botToken = config.discord.botToken;
  if (!botToken) return undefined;
  const ask = input.ask ?? buildAnswering(config, db, logger, buildEmbedder(config, logger));
  const checkEntitlement =
    input.checkEntitlement ?? buildEntitlementCheck(config, db, buildOnboarding({ config, db, logger, cookieSecret: resolveCookieSecret(config, logger), print: (line) => print.line(line) }));
  return startGatewayRunner({
    db,
    logger,
    botToken,
    apiBase: config.discord.apiBase,
    ask,
    checkEntitlement,
    guildFacts: createCachedGuildFacts({ api: createDiscordApi({ apiBase: config.discord.apiBase, botToken }), logger }),
  });
}
