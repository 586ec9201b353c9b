import type {} from './error-codes.ts';
export {
  loadConfig,
  DEFAULT_PORT,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_OPENAI_CHAT_MODEL,
  DEFAULT_OPENAI_EMBEDDING_MODEL,
  DEFAULT_DISCORD_API_BASE,
  DEFAULT_DISCORD_OAUTH_BASE,
  DEFAULT_FREE_SAVES,
  DEFAULT_FREE_ASKS,
  DEFAULT_PAST_DUE_GRACE_DAYS,
  DEFAULT_SHUTDOWN_GRACE_SECONDS,
  EMBEDDED_HOST,
  NETWORK_HOST,
  type LoadConfigOptions,
} from './load-config.ts';
export { checkServingConfig, type ServedSurface } from './serving-checks.ts';
export { parseDatabaseUrl, type PostgresTarget } from './database-url.ts';
export type { BrainConfig, DatabaseConfig } from './types.ts';
