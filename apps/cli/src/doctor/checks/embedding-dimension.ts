import { EMBEDDING_DIMENSIONS } from '@brain/db';
import type { DoctorCheck } from '../check.ts';
import { fail, failWith, needsConfig, pass } from '../check.ts';
import { buildEmbedder } from '../../services/ingest.ts';

/** Embeds one probe with the configured provider: the key, the model and the dimension in one call. */
export const embeddingDimensionCheck: DoctorCheck = {
  id: 'embedding-dimension',
  title: `Embeddings have ${EMBEDDING_DIMENSIONS} dimensions`,
  async run(ctx) {
    const config = ctx.config;
    if (!config) return needsConfig;
    const embedder = buildEmbedder(config, ctx.logger);
    let vectors: number[][];
    try {
      vectors = await embedder.embed(['brain doctor probe: is this embedder reachable?'], { signal: AbortSignal.timeout(ctx.timeoutMs) });
    } catch (error) {
      return failWith(error, 'Check OPENAI_API_KEY, OPENAI_BASE_URL and EMBEDDING_MODEL, then run `brain doctor` again.');
    }
    const length = vectors[0]?.length ?? 0;
    if (length !== EMBEDDING_DIMENSIONS) {
      return fail(
        `${config.embedding.model} returned ${length} dimensions; chunks.embedding stores ${EMBEDDING_DIMENSIONS}`,
        `Set EMBEDDING_MODEL to a model with ${EMBEDDING_DIMENSIONS} dimensions (text-embedding-3-small, or text-embedding-3-large with dimensions=${EMBEDDING_DIMENSIONS} behind a proxy).`,
      );
    }
    return pass(`${config.embedding.provider} ${config.embedding.model} returned ${length} dimensions`);
  },
};
