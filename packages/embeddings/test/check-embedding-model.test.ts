import { expect, it } from 'vitest';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { checkEmbeddingModel } from '../src/index.ts';
import { addChunks } from './stored-chunks.ts';

describeDb('checkEmbeddingModel', (suite) => {
  it('passes on an empty database and on passages not yet embedded', async () => {
    expect(await checkEmbeddingModel(suite.db, 'local-hash-v1')).toEqual([]);
    await addChunks(suite.db, null, 2);
    expect(await checkEmbeddingModel(suite.db, 'text-embedding-3-small')).toEqual([]);
  });

  it('passes when every embedded passage, in every workspace, uses the configured model', async () => {
    await addChunks(suite.db, 'local-hash-v1', 3);
    await addChunks(suite.db, 'local-hash-v1', 2);
    expect(await checkEmbeddingModel(suite.db, 'local-hash-v1')).toEqual([{ model: 'local-hash-v1', chunks: 5 }]);
  });

  it('fails with both models, their counts and the re-embed command when another model is stored', async () => {
    // In another workspace than the matching ones: the check reads across tenants.
    await addChunks(suite.db, 'text-embedding-3-small', 1);
    try {
      await checkEmbeddingModel(suite.db, 'local-hash-v1');
      expect.unreachable();
    } catch (error) {
      expect(isAppError(error, 'EMBEDDING_MODEL_MISMATCH')).toBe(true);
      const mismatch = error as Error & { nextStep: string; details: unknown };
      expect(mismatch.message).toContain('1 with text-embedding-3-small');
      expect(mismatch.message).toContain('5 with local-hash-v1');
      expect(mismatch.nextStep).toContain('`brain reembed`');
      expect(mismatch.nextStep).toContain('with local-hash-v1 in the background');
      expect(mismatch.details).toEqual({
        configured: 'local-hash-v1',
        found: [
          { model: 'local-hash-v1', chunks: 5 },
          { model: 'text-embedding-3-small', chunks: 1 },
        ],
      });
    }
    await expect(checkEmbeddingModel(suite.db, 'text-embedding-3-small')).rejects.toThrow(/5 with local-hash-v1/);
  });
});
