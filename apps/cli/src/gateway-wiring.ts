import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { createCachedGuildFacts, createDiscordApi, startGatewayRunner, type AskFunction, type EntitlementCheck, type GatewayRunner } from '@brain/discord';
import type { Logger } from '@brain/observability';
import { buildRewriter } from './services/answering.ts';

export interface GatewayWiringInput {
  config: BrainConfig;
  db: Database;
  logger: Logger;
  /** The composition's answering path and billing's gate (compose.ts), as Discord's /ask gets them. */
  ask: AskFunction;
  checkEntitlement: EntitlementCheck;
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
  return startGatewayRunner({
    db,
    logger,
    botToken,
    apiBase: config.discord.apiBase,
    ask: input.ask,
    checkEntitlement: input.checkEntitlement,
    rewriter: buildRewriter(config),
    guildFacts: createCachedGuildFacts({ api: createDiscordApi({ apiBase: config.discord.apiBase, botToken }), logger, db }),
  });
}
