import type { BrainConfig } from '@brain/config';
import { AppError } from '@brain/errors';
import type { Embedder } from './embedder.ts';
import { createLocalEmbedder, LOCAL_EMBEDDING_MODEL } from './local/local-embedder.ts';
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from './openai/openai-embedder.ts';

export type EmbedderConfig = BrainConfig['embedding'] & { apiKey?: string | undefined; baseUrl?: string | undefined };

/**
 * The embedder the configuration asks for: local-hash-v1 when it is the model (the default without
 * OPENAI_API_KEY / OPENAI_BASE_URL, and allowed with them, to keep local vectors while answering
 * with a chat model), otherwise the OpenAI-compatible provider.
 */
export function createEmbedder(
  config: EmbedderConfig,
  /** Passed to the OpenAI-compatible provider: logger, fetch, limits, retry policy. */
  deps: Omit<Partial<OpenAIEmbedderOptions>, 'apiKey' | 'baseUrl' | 'model'> = {},
): Embedder {
  if (config.model === LOCAL_EMBEDDING_MODEL) return createLocalEmbedder();
  if (config.provider === 'local') {
    throw new AppError({
      code: 'EMBEDDING_MODEL_UNKNOWN',
      message: `EMBEDDING_MODEL is "${config.model}", but no embedding provider is configured; the built-in embedder is ${LOCAL_EMBEDDING_MODEL}.`,
      nextStep: `Set OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server) to use ${config.model}, or unset EMBEDDING_MODEL.`,
    });
  }
  return createOpenAIEmbedder({ ...deps, apiKey: config.apiKey, baseUrl: config.baseUrl, model: config.model });
}
