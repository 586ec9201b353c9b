import { AppError } from '@brain/errors';
import type { OpenAISdk } from './load-openai.ts';
import { isRetryableStatus, retryAfterMs } from './retry-policy.ts';

/** One failed attempt, as the retry loop needs to see it. */
export interface AttemptFailure {
  retryable: boolean;
  status: number | undefined;
  retryAfterMs: number | undefined;
  /** Thrown as is when the failure is final. */
  error: AppError;
}

interface Context {
  model: string;
  baseUrl: string;
}

const KEY_STEP = 'Check OPENAI_API_KEY (and OPENAI_BASE_URL when it points elsewhere than OpenAI), or unset both to use the built-in local embedder.';

/** Maps what the openai SDK throws to a coded AppError and whether another attempt may succeed. */
export function classifyFailure(error: unknown, context: Context, sdk: Pick<OpenAISdk, 'APIConnectionError' | 'APIError' | 'APIUserAbortError'>): AttemptFailure {
  const { APIConnectionError, APIError, APIUserAbortError } = sdk;
  if (error instanceof AppError) return { retryable: error.retryable, status: undefined, retryAfterMs: undefined, error };
  if (error instanceof APIUserAbortError) {
    return { retryable: false, status: undefined, retryAfterMs: undefined, error: aborted(error) };
  }
  if (error instanceof APIConnectionError) {
    // Timeouts are a subclass: both mean no answer came back, so the next attempt may get one.
    return {
      retryable: true,
      status: undefined,
      retryAfterMs: undefined,
      error: new AppError({
        code: 'EMBEDDING_PROVIDER_UNAVAILABLE',
        message: `Could not reach the embedding provider at ${context.baseUrl}: ${error.message}`,
        userMessage: 'The embedding service could not be reached.',
        nextStep: 'It is retried automatically; if it persists, check OPENAI_BASE_URL and the network.',
        httpStatus: 503,
        retryable: true,
        details: { model: context.model },
        cause: error,
      }),
    };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const fields: ApiErrorFields = {
      message: error.message,
      headers: error.headers as Headers | undefined,
      code: typeof error.code === 'string' ? error.code : undefined,
      requestId: typeof error.requestID === 'string' ? error.requestID : undefined,
      cause: error,
    };
    return fromStatus(fields, error.status, context);
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    retryable: false,
    status: undefined,
    retryAfterMs: undefined,
    error: new AppError({ code: 'EMBEDDING_FAILED', message: `Embedding failed: ${message}`, userMessage: 'Embedding failed.', cause: error }),
  };
}

interface ApiErrorFields {
  message: string;
  headers: Headers | undefined;
  code: string | undefined;
  requestId: string | undefined;
  cause: Error;
}

function fromStatus(error: ApiErrorFields, status: number, context: Context): AttemptFailure {
  const details = { status, model: context.model, requestId: error.requestId, providerCode: error.code };
  const wait = retryAfterMs(error.headers);
  const base = { status, retryAfterMs: wait };
  if (status === 429 && error.code === 'insufficient_quota') {
    return {
      ...base,
      retryable: false,
      error: new AppError({
        code: 'EMBEDDING_QUOTA_EXCEEDED',
        message: `The embedding provider refused the request: the account is out of quota (${error.message}).`,
        userMessage: 'The embedding service account has run out of quota.',
        nextStep: "Add credit or raise the limit on the provider's billing page, then retry the failed sources.",
        httpStatus: 503,
        details,
        cause: error.cause,
      }),
    };
  }
  if (isRetryableStatus(status)) {
    const limited = status === 429;
    return {
      ...base,
      retryable: true,
      error: new AppError({
        code: limited ? 'EMBEDDING_RATE_LIMITED' : 'EMBEDDING_PROVIDER_UNAVAILABLE',
        message: `The embedding provider answered ${error.message}`,
        userMessage: limited ? 'The embedding service is rate-limiting us.' : 'The embedding service is unavailable.',
        nextStep: limited
          ? 'Indexing resumes by itself; if it happens often, raise the rate limit of the API key or lower the ingestion concurrency.'
          : 'It is retried automatically; check the provider status page if it persists.',
        httpStatus: 503,
        retryable: true,
        details: { ...details, retryAfterMs: wait },
        cause: error.cause,
      }),
    };
  }
  if (status === 401 || status === 403) {
    return {
      ...base,
      retryable: false,
      error: new AppError({
        code: 'EMBEDDING_AUTH_FAILED',
        message: `The embedding provider rejected the credentials (${error.message}).`,
        userMessage: 'The embedding service rejected our API key.',
        nextStep: `${KEY_STEP} The key must be allowed to use ${context.model}.`,
        httpStatus: 502,
        details,
        cause: error.cause,
      }),
    };
  }
  if (status === 404) {
    return {
      ...base,
      retryable: false,
      error: new AppError({
        code: 'EMBEDDING_MODEL_NOT_FOUND',
        message: `The embedding provider at ${context.baseUrl} has no model "${context.model}" or no /embeddings endpoint (${error.message}).`,
        userMessage: 'The configured embedding model does not exist at the provider.',
        nextStep: 'Set EMBEDDING_MODEL to a model the provider serves (text-embedding-3-small on OpenAI), and OPENAI_BASE_URL to its /v1 address.',
        httpStatus: 502,
        details,
        cause: error.cause,
      }),
    };
  }
  return {
    ...base,
    retryable: false,
    error: new AppError({
      code: 'EMBEDDING_REQUEST_INVALID',
      message: `The embedding provider rejected the request: ${error.message}`,
      userMessage: 'The embedding service rejected the request.',
      nextStep: `Check that EMBEDDING_MODEL (${context.model}) is an embedding model that returns 1536 dimensions; the error above says what was wrong.`,
      httpStatus: 502,
      details,
      cause: error.cause,
    }),
  };
}

export function aborted(cause: unknown): AppError {
  return new AppError({
    code: 'EMBEDDING_ABORTED',
    message: 'Embedding was cancelled before it finished.',
    userMessage: 'Embedding was interrupted.',
    nextStep: 'Nothing to do: the work is picked up again on the next attempt.',
    httpStatus: 503,
    retryable: true,
    cause,
  });
}
