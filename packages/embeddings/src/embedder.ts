/**
 * Turns passages and questions into 1536-dimensional vectors. Every surface (ingestion, /ask,
 * MCP, eval) goes through this one interface; the model name is recorded on each chunk so a
 * change of model is detected at startup instead of silently mixing vector spaces.
 */
export interface Embedder {
  /** Recorded in chunks.embedding_model, e.g. "local-hash-v1" or "text-embedding-3-small". */
  readonly model: string;
  readonly dimensions: number;
  /** One vector per input, in order. Implementations batch and retry as their provider needs. */
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}
