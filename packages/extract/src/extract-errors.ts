import { AppError, type ErrorCode } from '@brain/errors';

export type ExtractErrorCode =
  | 'EXTRACT_UNSUPPORTED_TYPE'
  | 'EXTRACT_TOO_LARGE'
  | 'EXTRACT_TOO_COMPLEX'
  | 'EXTRACT_EMPTY'
  | 'EXTRACT_PDF_ENCRYPTED'
  | 'EXTRACT_PDF_INVALID'
  | 'EXTRACT_TIMEOUT'
  | 'EXTRACT_MEMORY_LIMIT'
  | 'EXTRACT_FAILED'
  | 'EXTRACT_CRASHED';

interface ExtractErrorInit {
  message: string;
  userMessage: string;
  nextStep: string;
  details?: Record<string, unknown>;
  cause?: unknown;
  /** Only a sandbox that died for no reason the document explains is worth another try. */
  retryable?: boolean;
}

export function extractError(code: ExtractErrorCode, init: ExtractErrorInit): AppError {
  return new AppError({ code, httpStatus: code === 'EXTRACT_CRASHED' ? 500 : 422, retryable: false, ...init });
}

export function tooLarge(what: string, bytes: number, limit: number): AppError {
  const mb = (n: number) => `${Math.ceil(n / (1024 * 1024))} MB`;
  return extractError('EXTRACT_TOO_LARGE', {
    message: `${what} of ${bytes} bytes exceeds the ${limit}-byte limit`,
    userMessage: `That ${what} is too large to read (${mb(bytes)}; the limit is ${mb(limit)}).`,
    nextStep: 'Save a smaller document, or split it and save the parts.',
    details: { bytes, limitBytes: limit },
  });
}

export function tooComplex(reason: string, details: Record<string, unknown>): AppError {
  return extractError('EXTRACT_TOO_COMPLEX', {
    message: `Refused to parse: ${reason}`,
    userMessage: `That page is built in a way that can't be read safely (${reason}).`,
    nextStep: 'Save the page as text or PDF and save that instead.',
    details,
  });
}

export function emptyDocument(kind: string, hint: string): AppError {
  return extractError('EXTRACT_EMPTY', {
    message: `No text found in the ${kind}`,
    userMessage: `No text was found in that ${kind}.`,
    nextStep: hint,
    details: { kind },
  });
}

/** What crosses the process boundary: an AppError's fields, nothing that needs a prototype. */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  userMessage: string;
  nextStep?: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

export function serializeError(error: AppError): SerializedError {
  return {
    code: error.code,
    message: error.message,
    userMessage: error.userMessage,
    nextStep: error.nextStep,
    retryable: error.retryable,
    details: error.details,
  };
}

export function deserializeError(error: SerializedError): AppError {
  return new AppError({ ...error, httpStatus: error.code === 'EXTRACT_CRASHED' ? 500 : 422 });
}

export function sandboxTimeout(timeoutMs: number): AppError {
  return extractError('EXTRACT_TIMEOUT', {
    message: `Extraction exceeded its ${timeoutMs} ms time limit; the sandbox process was killed`,
    userMessage: `Reading that document took more than ${Math.round(timeoutMs / 1000)} seconds of processing, so it was stopped.`,
    nextStep: 'Save a smaller or simpler version of it, or its text.',
    details: { timeoutMs },
  });
}

export function sandboxMemory(limitMb: number, observedMb: number | undefined): AppError {
  return extractError('EXTRACT_MEMORY_LIMIT', {
    message: `Extraction exceeded its memory limit (${observedMb ?? 'heap'} of ${limitMb} MB); the sandbox process was killed`,
    userMessage: 'Reading that document needed more memory than allowed, so it was stopped.',
    nextStep: 'Save a smaller or simpler version of it, or its text.',
    details: { limitMb, observedMb },
  });
}

export function sandboxCrashed(reason: string, details: Record<string, unknown> = {}): AppError {
  return extractError('EXTRACT_CRASHED', {
    message: `The extraction process died: ${reason}`,
    userMessage: 'The document reader stopped unexpectedly.',
    nextStep: 'It will be tried again; if it keeps failing, save the text instead.',
    retryable: true,
    details,
  });
}
