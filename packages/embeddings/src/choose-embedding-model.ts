import type { Database } from '@brain/db';
import { storedEmbeddingModels } from './check-embedding-model.ts';
import { LOCAL_EMBEDDING_MODELS } from './local/local-embedder.ts';

export interface EmbeddingModelChoice {
  model: string;
  /** Set when the database's own local model is kept instead of the default one. */
  kept?: { stored: string; default: string; chunks: number };
}

const isLocal = (model: string) => (LOCAL_EMBEDDING_MODELS as readonly string[]).includes(model);

/**
 * The model this database is served with. EMBEDDING_MODEL, when set, decides. Unset, a database
 * whose passages are all of another built-in model than the default (an install from before the
 * default changed) keeps that model: an upgrade must not refuse to answer until `brain reembed`
 * runs. A database with no passages, or some of the default model already (a re-embedding under
 * way), gets the default.
 */
export async function chooseEmbeddingModel(db: Database, embedding: { model: string; defaulted?: true | undefined }): Promise<EmbeddingModelChoice> {
  if (!embedding.defaulted || !isLocal(embedding.model)) return { model: embedding.model };
  const found = await storedEmbeddingModels(db);
  const stored = found[0];
  if (!stored || found.some((row) => row.model === embedding.model) || !isLocal(stored.model)) return { model: embedding.model };
  return { model: stored.model, kept: { stored: stored.model, default: embedding.model, chunks: stored.chunks } };
}
