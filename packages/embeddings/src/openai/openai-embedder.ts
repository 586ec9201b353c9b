import type OpenAI from 'openai';
import { AppError, coerceError } from '@brain/errors';
import type { Embedder } from '../embedder.ts';
import { abortableSleep } from '../abortable-sleep.ts';
import { aborted, classifyFailure, type AttemptFailure } from './classify-failure.ts';
import { loadOpenAI } from './load-openai.ts';
import { planBatches, type PlannedInput } from './plan-batches.ts';
import { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.ts';
import { decodeEmbeddings } from './decode-embeddings.ts';

export const OPENAI_EMBEDDING_DIMENSIONS = 1536;

export interface EmbeddingLogger {
  warn(details: Record<string, unknown>, message: string): void;
}
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIEmbedderOptions {
  /** May be omitted for OpenAI-compatible servers that need no key (a local Ollama). */
  apiKey?: string | undefined;
  /** The provider's /v1 address; OpenAI's by default. */
  baseUrl?: string | undefined;
  model: string;
  /** The chunks table stores 1536 dimensions; nothing else is accepted. */
  dimensions?: number;
  /**
   * Send `dimensions: 1536` in the request. Only text-embedding-3-* accept it (others answer 400),
   * so the default is true for those and false otherwise; an Azure deployment with a custom name
   * serving text-embedding-3 can set it to true.
   */
  sendDimensions?: boolean;
  /** Inputs per request; OpenAI accepts at most 2048. */
  maxBatchSize?: number;
  /** Estimated tokens per request (OpenAI's limit is 300,000; the estimate errs high). */
  maxTokensPerRequest?: number;
  /** Estimated tokens per input before it is split (OpenAI rejects inputs over 8191 tokens). */
  maxTokensPerInput?: number;
  /** Requests in flight at once for one embed() call. */
  concurrency?: number;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  /** Cap on any wait; a server asking for longer ends the call with a retryable error instead. */
  retryMaxDelayMs?: number;
  /** Per request. */
  timeoutMs?: number;
  /** Warnings (retries, split inputs); a pino logger fits. */
  logger?: EmbeddingLogger;
  fetch?: typeof fetch;
  /** For tests: how to wait, and the source of jitter. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

const DEFAULTS = {
  maxBatchSize: 2048,
  maxTokensPerRequest: 250_000,
  // 8191 minus a margin: the estimate is conservative for prose, less so for random strings.
  maxTokensPerInput: 6_500,
  concurrency: 4,
  timeoutMs: 60_000,
};

/**
 * An Embedder for OpenAI's /v1/embeddings and compatible servers (Azure OpenAI, Ollama, LiteLLM).
 * The SDK's own retries are off (maxRetries 0): this loop retries, so the behaviour is explicit,
 * logged and testable. Batches run `concurrency` at a time; the first final failure cancels the
 * rest and is thrown as a coded AppError whose `retryable` tells the job queue what to do.
 */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Embedder {
  if (options.dimensions !== undefined && options.dimensions !== OPENAI_EMBEDDING_DIMENSIONS) {
    throw new AppError({
      code: 'EMBEDDING_DIMENSION_MISMATCH',
      message: `The chunks table stores ${OPENAI_EMBEDDING_DIMENSIONS}-dimensional vectors, not ${options.dimensions}.`,
      nextStep: `Use a model that returns ${OPENAI_EMBEDDING_DIMENSIONS} dimensions; a new dimension needs a new column (DESIGN §3).`,
    });
  }
  const model = options.model;
  const baseUrl = (options.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
  const limits = {
    maxBatchSize: Math.min(options.maxBatchSize ?? DEFAULTS.maxBatchSize, DEFAULTS.maxBatchSize),
    maxTokensPerRequest: options.maxTokensPerRequest ?? DEFAULTS.maxTokensPerRequest,
    maxTokensPerInput: options.maxTokensPerInput ?? DEFAULTS.maxTokensPerInput,
  };
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  };
  const sendDimensions = options.sendDimensions ?? model.startsWith('text-embedding-3');
  const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const logger = options.logger;

  // Every setting is explicit, so the SDK never falls back to reading the environment itself.
  const settings = {
    apiKey: options.apiKey ?? 'unused',
    baseURL: baseUrl,
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULTS.timeoutMs,
    logLevel: 'off' as const,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  let client: Promise<OpenAI> | undefined;
  const api = () => (client ??= loadOpenAI().then((sdk) => new sdk.default(settings)));
  const context = { model, baseUrl };

  async function request(batch: PlannedInput[], signal: AbortSignal): Promise<number[][]> {
    const response = await (await api()).embeddings.create(
      {
        model,
        input: batch.map((input) => input.text),
        encoding_format: 'base64',
        ...(sendDimensions ? { dimensions: OPENAI_EMBEDDING_DIMENSIONS } : {}),
      },
      { signal },
    );
    return decodeEmbeddings(response, batch.length, { model, dimensions: OPENAI_EMBEDDING_DIMENSIONS });
  }

  async function withRetries(batch: PlannedInput[], signal: AbortSignal): Promise<number[][]> {
    for (let attempt = 0; ; attempt++) {
      let failure: AttemptFailure;
      try {
        return await request(batch, signal);
      } catch (error) {
        if (signal.aborted) throw aborted(signal.reason);
        failure = classifyFailure(error, context, await loadOpenAI());
      }
      const attempts = attempt + 1;
      if (!failure.retryable) throw withAttempts(failure.error, attempts);
      if (attempt >= policy.maxRetries) {
        throw withAttempts(failure.error, attempts, `Gave up after ${attempts} attempts.`);
      }
      if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxDelayMs) {
        // Waiting that long inside one job would hold its lease; the queue can wait instead.
        throw withAttempts(failure.error, attempts, `The provider asked to wait ${Math.round(failure.retryAfterMs / 1000)} s, more than the ${Math.round(policy.maxDelayMs / 1000)} s this call waits.`);
      }
      const delayMs = failure.retryAfterMs ?? backoffDelay(attempt, policy, random);
      logger?.warn(
        { model, status: failure.status, code: failure.error.code, attempt: attempts, delayMs, inputs: batch.length },
        'embedding request failed; retrying',
      );
      try {
        await sleep(delayMs, signal);
      } catch (error) {
        throw aborted(signal.reason ?? error);
      }
    }
  }

  return {
    model,
    dimensions: OPENAI_EMBEDDING_DIMENSIONS,
    async embed(texts, embedOptions) {
      const empty = texts.findIndex((text) => text.trim() === '');
      if (empty >= 0) {
        throw new AppError({
          code: 'EMBEDDING_REQUEST_INVALID',
          message: `Input ${empty} is empty; embedding providers reject empty text.`,
          nextStep: 'Skip empty passages and questions before embedding them.',
          httpStatus: 400,
        });
      }
      if (texts.length === 0) return [];
      const outer = embedOptions?.signal;
      if (outer?.aborted) throw aborted(outer.reason);

      const plan = planBatches(texts, limits);
      for (const { index, tokens, parts } of plan.split) {
        logger?.warn({ model, index, estimatedTokens: tokens, parts }, 'input over the per-input token limit: embedded in parts and averaged');
      }

      // One controller for the call: the caller's abort and our own first final failure both stop every batch.
      const controller = new AbortController();
      const onAbort = () => controller.abort(outer?.reason);
      outer?.addEventListener('abort', onAbort, { once: true });
      const results: number[][][] = new Array<number[][]>(plan.batches.length);
      let next = 0;
      let failed: AppError | undefined;
      const worker = async () => {
        while (failed === undefined && next < plan.batches.length) {
          const index = next++;
          try {
            results[index] = await withRetries(plan.batches[index] as PlannedInput[], controller.signal);
          } catch (error) {
            failed ??= coerceError(error);
            controller.abort(error);
          }
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(concurrency, plan.batches.length) }, worker));
      } finally {
        outer?.removeEventListener('abort', onAbort);
      }
      if (outer?.aborted) throw aborted(outer.reason);
      if (failed !== undefined) throw failed;
      return combine(texts.length, plan.batches, results);
    },
  };
}

/** Places each vector at its caller index; the parts of a split input are averaged, weighted by length, and normalised. */
function combine(count: number, batches: PlannedInput[][], results: number[][][]): number[][] {
  const parts: { vector: number[]; weight: number }[][] = Array.from({ length: count }, () => []);
  batches.forEach((batch, b) => {
    const vectors = results[b] as number[][];
    batch.forEach((input, i) => (parts[input.owner] as { vector: number[]; weight: number }[]).push({ vector: vectors[i] as number[], weight: input.text.length }));
  });
  return parts.map((list) => {
    if (list.length === 1) return (list[0] as { vector: number[] }).vector;
    const sum = new Array<number>(OPENAI_EMBEDDING_DIMENSIONS).fill(0);
    for (const { vector, weight } of list) for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) + (vector[d] as number) * weight;
    const norm = Math.sqrt(sum.reduce((n, x) => n + x * x, 0)) || 1;
    return sum.map((x) => x / norm);
  });
}

function withAttempts(error: AppError, attempts: number, note?: string): AppError {
  return new AppError({
    code: error.code,
    message: note ? `${error.message} ${note}` : error.message,
    userMessage: error.userMessage,
    nextStep: error.nextStep,
    httpStatus: error.httpStatus,
    retryable: error.retryable,
    details: { ...error.details, attempts },
    cause: error.cause ?? error,
  });
}
