import { AppError } from './app-error.ts';

/** Every catch goes through this, so nothing downstream has to handle `unknown`. */
export function coerceError(value: unknown): AppError {
  if (value instanceof AppError) return value;
  if (value instanceof Error) {
    return new AppError({
      code: 'INTERNAL',
      message: value.message,
      userMessage: 'Something went wrong on our side.',
      nextStep: 'Try again in a minute; if it keeps happening, tell the server operator.',
      cause: value,
    });
  }
  return new AppError({
    code: 'INTERNAL',
    message: typeof value === 'string' ? value : 'Unknown error',
    userMessage: 'Something went wrong on our side.',
    nextStep: 'Try again in a minute; if it keeps happening, tell the server operator.',
    cause: value,
  });
}
