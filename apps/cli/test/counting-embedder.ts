import type { Embedder } from '@brain/embeddings';

/** The given embedder, counting the texts indexing embeds: a re-save or re-sync of unchanged content must embed none. */
export function countingEmbedder(inner: Embedder): { embedder: Embedder; embedded(): number; reset(): void } {
  let count = 0;
  return {
    embedder: {
      model: inner.model,
      dimensions: inner.dimensions,
      embed: async (texts, options) => {
        count += texts.length;
        return inner.embed(texts, options);
      },
    },
    embedded: () => count,
    reset: () => {
      count = 0;
    },
  };
}
