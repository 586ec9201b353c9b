export type { Embedder } from './embedder.ts';
export { createLocalEmbedder, LOCAL_EMBEDDING_MODEL, LOCAL_EMBEDDING_DIMENSIONS } from './local/local-embedder.ts';
