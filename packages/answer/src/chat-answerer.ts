import type OpenAI from 'openai';
import { loadOpenAI, type OpenAISdk } from '@brain/embeddings';
import { AppError, isAppError } from '@brain/errors';
import { chatBaseUrl, openAIChatClient } from './openai-chat-client.ts';
import { buildChatMessages } from './prompt.ts';
import type { Answerer, AnswerOutput, AnswerRequest } from './types.ts';

export interface ChatAnswererOptions {
  /** Optional for endpoints that need none (a local Ollama); OpenAI itself requires one. */
  apiKey?: string | undefined;
  /** Any OpenAI-compatible endpoint, e.g. http://localhost:11434/v1. Default: OpenAI's. */
  baseUrl?: string | undefined;
  model: string;
  /** One HTTP attempt at most this long (default 30 s); ask() also bounds the whole stage. */
  timeoutMs?: number;
  /** Retries on connection errors, 408, 409, 429 and 5xx, with the SDK's backoff (default 1). */
  maxRetries?: number;
  /** Upper bound on the answer's length in tokens (default 700). */
  maxOutputTokens?: number;
  temperature?: number;
}

export { OPENAI_DEFAULT_BASE_URL } from './openai-chat-client.ts';

/**
 * Answers with an OpenAI-compatible chat model (OpenAI, Azure OpenAI, Ollama, LiteLLM, vLLM). The
 * prompt comes from buildChatMessages; failures become AppErrors whose codes say which side to fix.
 */
export function createChatAnswerer(options: ChatAnswererOptions): Answerer {
  const baseURL = chatBaseUrl(options.baseUrl);
  const client = openAIChatClient({ apiKey: options.apiKey, baseUrl: baseURL, timeoutMs: options.timeoutMs ?? 30_000, maxRetries: options.maxRetries ?? 1 });
  const model = options.model;
  const endpoint = new URL(baseURL).host;

  return {
    kind: 'llm',
    model,
    async answer(request: AnswerRequest): Promise<AnswerOutput> {
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await (await client()).chat.completions.create(
          {
            model,
            messages: buildChatMessages(request.question, request.passages),
            temperature: options.temperature ?? 0,
            max_tokens: options.maxOutputTokens ?? 700,
          },
          { signal: request.signal },
        );
      } catch (error) {
        throw chatError(error, { model, endpoint, signal: request.signal }, (await loadOpenAI()).default);
      }
      const choice = completion.choices[0];
      const text = choice?.message.content?.trim() ?? '';
      if (choice?.finish_reason === 'content_filter' || text === '') {
        throw new AppError({
          code: 'ANSWER_MODEL_EMPTY',
          message: `Chat model ${model} at ${endpoint} returned no answer (finish_reason ${choice?.finish_reason ?? 'none'})`,
          userMessage: 'The language model returned no answer to this question.',
          nextStep: 'Try rephrasing the question; if it keeps happening, tell the server operator.',
          retryable: true,
          httpStatus: 502,
          details: { model, endpoint, finishReason: choice?.finish_reason ?? null },
        });
      }
      return { text, model: completion.model || model, kind: 'llm' };
    },
  };
}

function chatError(error: unknown, ctx: { model: string; endpoint: string; signal: AbortSignal | undefined }, OpenAI: OpenAISdk['default']): AppError {
  if (isAppError(error)) return error;
  const where = `chat model ${ctx.model} at ${ctx.endpoint}`;
  const base = { cause: error, details: { model: ctx.model, endpoint: ctx.endpoint } };
  if (error instanceof OpenAI.APIUserAbortError || ctx.signal?.aborted || error instanceof OpenAI.APIConnectionTimeoutError) {
    return new AppError({
      ...base,
      code: 'ANSWER_MODEL_TIMEOUT',
      message: `${where} did not answer in time`,
      userMessage: 'The language model took too long to answer.',
      nextStep: 'Try again in a minute; if it keeps happening, the operator can check the model endpoint.',
      retryable: true,
      httpStatus: 504,
    });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new AppError({
      ...base,
      code: 'ANSWER_MODEL_UNREACHABLE',
      message: `${where} is unreachable: ${error.message}`,
      userMessage: 'The language model could not be reached.',
      nextStep: 'Try again in a minute; the operator can check OPENAI_BASE_URL and the network.',
      retryable: true,
      httpStatus: 503,
    });
  }
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
    return new AppError({
      ...base,
      code: 'ANSWER_MODEL_AUTH',
      message: `${where} refused the credentials (HTTP ${error.status})`,
      userMessage: 'The language model refused this server’s credentials.',
      nextStep: 'The operator should check OPENAI_API_KEY (and OPENAI_BASE_URL).',
      httpStatus: 503,
    });
  }
  if (error instanceof OpenAI.NotFoundError) {
    return new AppError({
      ...base,
      code: 'ANSWER_MODEL_NOT_FOUND',
      message: `${where} does not exist (HTTP 404)`,
      userMessage: 'The configured language model does not exist at its endpoint.',
      nextStep: 'The operator should check CHAT_MODEL and OPENAI_BASE_URL.',
      httpStatus: 503,
    });
  }
  if (error instanceof OpenAI.RateLimitError) {
    return new AppError({
      ...base,
      code: 'ANSWER_MODEL_RATE_LIMITED',
      message: `${where} is rate limiting us (HTTP 429)`,
      userMessage: 'The language model is busy right now.',
      nextStep: 'Try again in a minute.',
      retryable: true,
      httpStatus: 503,
    });
  }
  const status = error instanceof OpenAI.APIError ? (error.status as number | undefined) : undefined;
  return new AppError({
    ...base,
    code: 'ANSWER_MODEL_FAILED',
    message: `${where} failed${status ? ` (HTTP ${status})` : ''}: ${error instanceof Error ? error.message : String(error)}`,
    userMessage: 'The language model failed to answer.',
    nextStep: 'Try again in a minute; if it keeps happening, tell the server operator.',
    retryable: status === undefined || status >= 500,
    httpStatus: 502,
  });
}
