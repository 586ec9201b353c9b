import type { ErrorCode } from './error-codes.ts';

/**
 * The one error type that crosses package boundaries. `code` is stable and machine-readable;
 * `message` is for logs; `userMessage` is safe to show to a Discord user, an operator or an
 * agent; `nextStep` says what to do about it. Expected failures carry a 4xx `httpStatus`.
 */
export interface AppErrorOptions {
  code: ErrorCode;
  message: string;
  userMessage?: string;
  nextStep?: string;
  httpStatus?: number;
  retryable?: boolean;
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly userMessage: string;
  readonly nextStep: string | undefined;
  readonly httpStatus: number;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(options: AppErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = options.code;
    this.userMessage = options.userMessage ?? options.message;
    this.nextStep = options.nextStep;
    this.httpStatus = options.httpStatus ?? 500;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }

  /** The message and the next step, as one line a person can act on. */
  toUserString(): string {
    return this.nextStep ? `${this.userMessage} ${this.nextStep}` : this.userMessage;
  }
}

export function isAppError(value: unknown, code?: ErrorCode): value is AppError {
  return value instanceof AppError && (code === undefined || value.code === code);
}
