import type { BrainConfig } from '@brain/config';
import { createEmbedder, type Embedder } from '@brain/embeddings';
import type { Logger } from '@brain/observability';

export function buildEmbedder(config: BrainConfig, logger: Logger): Embedder {
  return createEmbedder(
    { ...config.embedding, apiKey: config.openai.apiKey, baseUrl: config.openai.baseUrl },
    { logger: logger.child({ component: 'embeddings' }) },
  );
}
