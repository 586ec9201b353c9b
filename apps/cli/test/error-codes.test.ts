import { describe, expect, it } from 'vitest';
import { AppError, isAppError, type ErrorCode } from '@brain/errors';

// Every package declares the codes it throws (its src/error-codes.ts), so across the product a
// code is a union, not a string: the typecheck (part of CI) is what this file really asserts.
describe('error codes', () => {
  it('are declared by the packages that throw them, and a misspelled one is a type error', () => {
    const declared: ErrorCode[] = ['EMBEDDING_DIMENSION_MISMATCH', 'FETCH_TIMEOUT', 'EXTRACT_EMPTY', 'FREE_ALLOWANCE_USED', 'HOST_NOT_ALLOWED', 'SYNC_NEEDS_BOT_TOKEN'];
    const error = new AppError({ code: 'EMBEDDING_DIMENSION_MISMATCH', message: 'm' });
    // @ts-expect-error the spelling MCP once had: no package declares it
    expect(isAppError(error, 'EMBEDDING_DIMENSIONS_MISMATCH')).toBe(false);
    expect(isAppError(error, declared[0])).toBe(true);
  });
});
