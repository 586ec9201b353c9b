import { STATUS_CODES } from 'node:http';
import { AppError, coerceError, isAppError, type ErrorCode } from '@brain/errors';

const NEXT_STEPS: Record<number, string> = {
  400: 'Check the request body (it must be what its content-type says) and send it again.',
  404: 'Check the address.',
  405: 'Use the method this address takes.',
  413: 'Send a smaller body.',
  415: 'Send the body with a content-type this address takes (JSON for the API, a form for the pages).',
};

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * An error as the AppError the handlers answer with, and its status. fastify's own refusals
 * (unsupported media type, malformed JSON, a body over the limit…) are the client's mistake:
 * they keep their 4xx and fastify's message, which describes the request, never our internals.
 * Anything else that is not an AppError is a 500 that says nothing.
 */
export function clientFacingError(error: unknown): { appError: AppError; status: number } {
  if (isAppError(error)) return { appError: error, status: error.httpStatus };
  const status = (error as { statusCode?: unknown }).statusCode;
  if (error instanceof Error && typeof status === 'number' && status >= 400 && status < 500) {
    const name = STATUS_CODES[status] ?? 'Bad Request';
    return {
      status,
      appError: new AppError({
        // fastify's 4xx keep Node's status name as their code (BAD_REQUEST, PAYLOAD_TOO_LARGE…):
        // derived, so not declared one by one in error-codes.ts.
        code: name.toUpperCase().replace(/[^A-Z0-9]+/g, '_') as ErrorCode,
        message: error.message,
        userMessage: sentence(error.message.startsWith(name) ? `${status} ${error.message}` : `${status} ${name}: ${error.message}`),
        nextStep: NEXT_STEPS[status] ?? 'Check the request and send it again.',
        httpStatus: status,
        cause: error,
      }),
    };
  }
  return { appError: coerceError(error), status: 500 };
}
