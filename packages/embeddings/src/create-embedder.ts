import type { BrainConfig } from '@brain/config';
import { AppError } from '@brain/errors';
import type { Embedder } from './embedder.ts';
import { createLocalEmbedder, LOCAL_EMBEDDING_MODELS, type LocalModel } from './local/local-embedder.ts';
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from './openai/openai-embedder.ts';

export type EmbedderConfig = BrainConfig['embedding'] & { apiKey?: string | undefined; baseUrl?: string | undefined };

/**
 * The embedder the configuration asks for: a built-in one when the model is local-hash-v2 (the
 * default without OPENAI_API_KEY / OPENAI_BASE_URL, and allowed with them, to keep local vectors
 * while answering with a chat model) or local-hash-v1, otherwise the OpenAI-compatible provider.
 */
export function createEmbedder(
  config: EmbedderConfig,
  /** Passed to the OpenAI-compatible provider: logger, fetch, limits, retry policy. */
  deps: Omit<Partial<OpenAIEmbedderOptions>, 'apiKey' | 'baseUrl' | 'model'> = {},
): Embedder {
  if (isLocalModel(config.model)) return createLocalEmbedder(config.model);
  if (config.provider === 'local') {
    throw new AppError({
      code: 'EMBEDDING_MODEL_UNKNOWN',
      message: `EMBEDDING_MODEL is "${config.model}", but no embedding provider is configured; the built-in embedders are ${LOCAL_EMBEDDING_MODELS.join(' and ')}.`,
      nextStep: `Set OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server) to use ${config.model}, or unset EMBEDDING_MODEL.`,
    });
  }
  return createOpenAIEmbedder({ ...deps, apiKey: config.apiKey, baseUrl: config.baseUrl, model: config.model });
}

function isLocalModel(model: string): model is LocalModel {
  return (LOCAL_EMBEDDING_MODELS as readonly string[]).includes(model);
}
