import { describe, expect, it } from 'vitest';
import { AppError, coerceError, isAppError } from '../src/index.ts';

// Codes of this test's own; a package declares its codes the same way.
declare module '../src/error-codes.ts' {
  interface ErrorCodes {
    QUOTA_EXCEEDED: true;
    OTHER: true;
    X: true;
  }
}

describe('AppError', () => {
  it('joins the user message and the next step into one actionable line', () => {
    const error = new AppError({ code: 'QUOTA_EXCEEDED', message: 'ws 1 used 25/25 saves', userMessage: 'This server used its free saves.', nextStep: 'Subscribe to keep saving.' });
    expect(error.toUserString()).toBe('This server used its free saves. Subscribe to keep saving.');
    expect(error.httpStatus).toBe(500);
    expect(isAppError(error, 'QUOTA_EXCEEDED')).toBe(true);
    expect(isAppError(error, 'OTHER')).toBe(false);
  });

  it('turns anything thrown into an INTERNAL error that hides the internals from users', () => {
    const wrapped = coerceError(new TypeError('cannot read x of undefined'));
    expect(wrapped.code).toBe('INTERNAL');
    expect(wrapped.message).toBe('cannot read x of undefined');
    expect(wrapped.toUserString()).not.toContain('undefined');
    expect(wrapped.cause).toBeInstanceOf(TypeError);
    expect(coerceError('plain string').message).toBe('plain string');
    const original = new AppError({ code: 'X', message: 'm' });
    expect(coerceError(original)).toBe(original);
  });
});
