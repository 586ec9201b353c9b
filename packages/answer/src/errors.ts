import { AppError } from '@brain/errors';

export const MAX_QUESTION_CHARS = 2000;

export function questionError(question: string): AppError | undefined {
  if (question.trim() === '') {
    return new AppError({
      code: 'QUESTION_EMPTY',
      message: 'The question is empty',
      userMessage: 'Ask a question with a few words in it.',
      httpStatus: 400,
    });
  }
  if (question.length > MAX_QUESTION_CHARS) {
    return new AppError({
      code: 'QUESTION_TOO_LONG',
      message: `The question has ${question.length} characters; the limit is ${MAX_QUESTION_CHARS}`,
      userMessage: `That question is too long (${question.length} characters).`,
      nextStep: `Ask it in at most ${MAX_QUESTION_CHARS} characters.`,
      httpStatus: 400,
    });
  }
  return undefined;
}

export function workspaceNotFound(workspaceId: string): AppError {
  return new AppError({
    code: 'WORKSPACE_NOT_FOUND',
    message: `No workspace ${workspaceId}`,
    userMessage: 'This server has no brain workspace yet.',
    nextStep: 'Ask the server operator to install the bot again.',
    httpStatus: 404,
  });
}

export function embeddingTimeout(model: string, ms: number, cause?: unknown): AppError {
  return new AppError({
    code: 'EMBEDDING_TIMEOUT',
    message: `Embedding the question with ${model} took longer than ${ms} ms`,
    userMessage: 'Reading your question took too long.',
    nextStep: 'Try again in a minute; if it keeps happening, the operator can check the embedding service.',
    retryable: true,
    httpStatus: 504,
    details: { model, timeoutMs: ms },
    cause,
  });
}

export function embeddingFailed(model: string, cause: unknown): AppError {
  return new AppError({
    code: 'EMBEDDING_FAILED',
    message: `Embedding the question with ${model} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    userMessage: 'Your question could not be read: the embedding service failed.',
    nextStep: 'Try again in a minute; if it keeps happening, the operator can check the embedding service (OPENAI_BASE_URL, EMBEDDING_MODEL).',
    retryable: true,
    httpStatus: 503,
    details: { model },
    cause,
  });
}

export function embeddingShape(model: string, got: number, want: number): AppError {
  return new AppError({
    code: 'EMBEDDING_DIMENSION_MISMATCH',
    message: `${model} returned a vector of ${got} dimensions for the question; the index holds ${want}`,
    userMessage: 'The embedding model is misconfigured.',
    nextStep: `The operator should set EMBEDDING_MODEL to a model that returns ${want} dimensions, the one the sources were indexed with.`,
    httpStatus: 500,
    details: { model, got, want },
  });
}

export function searchTimeout(ms: number, cause: unknown): AppError {
  return new AppError({
    code: 'SEARCH_TIMEOUT',
    message: `Searching the saved sources took longer than ${ms} ms`,
    userMessage: 'Searching the saved sources took too long.',
    nextStep: 'Try again in a minute; if it keeps happening, tell the server operator.',
    retryable: true,
    httpStatus: 504,
    details: { timeoutMs: ms },
    cause,
  });
}

export function answerTimeout(model: string, ms: number): AppError {
  return new AppError({
    code: 'ANSWER_MODEL_TIMEOUT',
    message: `The answerer ${model} took longer than ${ms} ms`,
    userMessage: 'The language model took too long to answer.',
    nextStep: 'Try again in a minute; if it keeps happening, the operator can check the model endpoint.',
    retryable: true,
    httpStatus: 504,
    details: { model, timeoutMs: ms },
  });
}
