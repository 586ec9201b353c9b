import { describe, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { embedQuestion } from '../src/retrieve.ts';

describe('the shared retrieval step', () => {
  it('refuses a vector of the wrong width with the code the embedders use, EMBEDDING_DIMENSION_MISMATCH', async () => {
    const narrow = { model: 'narrow-model', dimensions: 3, embed: () => Promise.resolve([[0.1, 0.2, 0.3]]) };
    const failure = await embedQuestion(narrow, 'refunds?', 1_000).catch((e: unknown) => e);
    expect(isAppError(failure, 'EMBEDDING_DIMENSION_MISMATCH')).toBe(true);
    expect((failure as { message: string }).message).toMatch(/narrow-model returned a vector of 3 dimensions/);
  });
});
