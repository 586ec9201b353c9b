import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { createCachedGuildFacts, createDiscordApi, createTokenAudience } from '@brain/discord';
import type { EntitlementGate, McpDeps } from '@brain/mcp';
import type { Embedder } from '@brain/embeddings';
import type { Logger } from '@brain/observability';
import { buildSaveOptions } from './ingest.ts';
import { buildSaveRateLimits } from './save-limits.ts';

/**
 * The MCP tools' services: the composition's one embedder (ingestion's vector space), the same
 * save checks and rate limits as Discord, and billing's gate (`buildEntitlementCheck`, as Discord
 * gets it).
 */
export function buildMcpDeps(config: BrainConfig, db: Database, logger: Logger, embedder: Embedder, checkEntitlement: EntitlementGate): McpDeps {
  const mcpLogger = logger.child({ component: 'mcp' });
  // A 'public' token reads the channels every member can read only when the bot token can say which.
  const guildFacts = config.discord.botToken
    ? createCachedGuildFacts({ api: createDiscordApi({ apiBase: config.discord.apiBase, botToken: config.discord.botToken }), logger: mcpLogger, db })
    : undefined;
  return {
    db,
    embedder,
    logger: mcpLogger,
    saveOptions: { ...buildSaveOptions(config), rateLimits: buildSaveRateLimits(config, db) },
    checkEntitlement,
    tokenAudience: createTokenAudience(db, guildFacts),
  };
}
