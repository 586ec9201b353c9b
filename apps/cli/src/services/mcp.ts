import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { createCachedGuildFacts, createDiscordApi, createTokenAudience } from '@brain/discord';
import type { McpDeps } from '@brain/mcp';
import type { Logger } from '@brain/observability';
import { buildEmbedder, buildSaveOptions } from './ingest.ts';

/** The MCP tools' services: the ingestion embedder (same vector space) and the same save checks as every surface. */
export function buildMcpDeps(config: BrainConfig, db: Database, logger: Logger): McpDeps {
  const mcpLogger = logger.child({ component: 'mcp' });
  // A 'public' token reads the channels every member can read only when the bot token can say which.
  const guildFacts = config.discord.botToken
    ? createCachedGuildFacts({ api: createDiscordApi({ apiBase: config.discord.apiBase, botToken: config.discord.botToken }), logger: mcpLogger })
    : undefined;
  return {
    db,
    embedder: buildEmbedder(config, mcpLogger),
    logger: mcpLogger,
    saveOptions: buildSaveOptions(config),
    tokenAudience: createTokenAudience(db, guildFacts),
  };
}
