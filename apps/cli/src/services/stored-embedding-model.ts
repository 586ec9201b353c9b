import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { chooseEmbeddingModel } from '@brain/embeddings';
import type { Logger } from '@brain/observability';

/**
 * The configuration with the embedding model this database is served with: with EMBEDDING_MODEL
 * unset, a database of an older built-in model keeps it (and the log says how to move), so an
 * upgrade that changed the default never refuses to answer. `brain reembed` skips this: moving
 * to the default is what it is for.
 */
export async function withStoredEmbeddingModel(config: BrainConfig, db: Database, logger: Logger): Promise<BrainConfig> {
  const choice = await chooseEmbeddingModel(db, config.embedding);
  if (!choice.kept) return config;
  logger.warn(
    { model: choice.kept.stored, default: choice.kept.default, passages: choice.kept.chunks },
    `this database's passages are ${choice.kept.stored}, so it keeps that model (EMBEDDING_MODEL is unset); new databases use ${choice.kept.default}, and \`brain reembed\` moves this one to it`,
  );
  return { ...config, embedding: { provider: config.embedding.provider, model: choice.model } };
}
