export {
  loadConfig,
  DEFAULT_PORT,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_OPENAI_CHAT_MODEL,
  DEFAULT_OPENAI_EMBEDDING_MODEL,
  type LoadConfigOptions,
} from './load-config.ts';
export { parseDatabaseUrl, type PostgresTarget } from './database-url.ts';
export type { BrainConfig, DatabaseConfig } from './types.ts';
