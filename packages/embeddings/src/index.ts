import type {} from './error-codes.ts';
export type { Embedder } from './embedder.ts';
export { createEmbedder, type EmbedderConfig } from './create-embedder.ts';
export { createLocalEmbedder, embedLocally, localModelOf, LOCAL_EMBEDDING_MODEL, LOCAL_EMBEDDING_MODELS, LOCAL_EMBEDDING_DIMENSIONS, type LocalModel } from './local/local-embedder.ts';
export {
  createOpenAIEmbedder,
  DEFAULT_OPENAI_BASE_URL,
  OPENAI_EMBEDDING_DIMENSIONS,
  type EmbeddingLogger,
  type OpenAIEmbedderOptions,
} from './openai/openai-embedder.ts';
export { loadOpenAI, type OpenAISdk } from './openai/load-openai.ts';
export { checkEmbeddingModel, storedEmbeddingModels, type EmbeddingModelCount } from './check-embedding-model.ts';
export { chooseEmbeddingModel, type EmbeddingModelChoice } from './choose-embedding-model.ts';
