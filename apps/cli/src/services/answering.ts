import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { Embedder } from '@brain/embeddings';
import { ask, createChatAnswerer, createChatRewriter, createExtractiveAnswerer, createRuleRewriter, type Answerer, type AskInput, type AskResult, type QuestionRewriter } from '@brain/answer';
import type { Logger } from '@brain/observability';

export type AnswerQuestion = (input: AskInput) => Promise<AskResult>;

/** The chat model when one is configured, otherwise the extractive answerer (no account needed). */
export function buildAnswerer(config: BrainConfig): Answerer {
  if (config.chat.provider === 'openai' && config.chat.model) {
    return createChatAnswerer({ apiKey: config.openai.apiKey, baseUrl: config.openai.baseUrl, model: config.chat.model });
  }
  return createExtractiveAnswerer();
}

/** Follow-ups' stand-alone rewrite: by the same chat model when one is configured, else the deterministic rule. */
export function buildRewriter(config: BrainConfig): QuestionRewriter {
  if (config.chat.provider === 'openai' && config.chat.model) {
    return createChatRewriter({ apiKey: config.openai.apiKey, baseUrl: config.openai.baseUrl, model: config.chat.model });
  }
  return createRuleRewriter();
}

/**
 * The one `ask` every surface uses (Discord, the playground, `brain ask`, MCP), wired from the
 * configuration. The embedder must be the one ingestion uses: a different model retrieves noise.
 */
export function buildAnswering(config: BrainConfig, db: Database, logger: Logger, embedder: Embedder): AnswerQuestion {
  const deps = { db, embedder, answerer: buildAnswerer(config), logger: logger.child({ component: 'answer' }) };
  return (input) => ask(deps, input);
}
