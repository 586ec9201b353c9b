export type { Embedder } from './embedder.ts';
