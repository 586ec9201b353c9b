import { expect, it } from 'vitest';
import { describeDb } from '@brain/db/testing';
import { checkEmbeddingModel, chooseEmbeddingModel } from '../src/index.ts';
import { addChunks } from './stored-chunks.ts';

const unset = { model: 'local-hash-v2', defaulted: true as const };

describeDb('chooseEmbeddingModel', (suite) => {
  it('gives a new database the default model', async () => {
    expect(await chooseEmbeddingModel(suite.db, unset)).toEqual({ model: 'local-hash-v2' });
  });

  it('keeps a database of an older built-in model on it while EMBEDDING_MODEL is unset, so the startup check passes', async () => {
    await addChunks(suite.db, 'local-hash-v1', 3);
    const choice = await chooseEmbeddingModel(suite.db, unset);
    expect(choice).toEqual({ model: 'local-hash-v1', kept: { stored: 'local-hash-v1', default: 'local-hash-v2', chunks: 3 } });
    await expect(checkEmbeddingModel(suite.db, choice.model)).resolves.toEqual([{ model: 'local-hash-v1', chunks: 3 }]);
  });

  it('follows EMBEDDING_MODEL when it is set, so asking for the new model still refuses until `brain reembed`', async () => {
    expect(await chooseEmbeddingModel(suite.db, { model: 'local-hash-v2' })).toEqual({ model: 'local-hash-v2' });
    await expect(checkEmbeddingModel(suite.db, 'local-hash-v2')).rejects.toThrow(/3 with local-hash-v1/);
    expect(await chooseEmbeddingModel(suite.db, { model: 'local-hash-v1' })).toEqual({ model: 'local-hash-v1' });
  });

  it('takes the default once some passages use it (a re-embedding under way)', async () => {
    await addChunks(suite.db, 'local-hash-v2', 1);
    expect(await chooseEmbeddingModel(suite.db, unset)).toEqual({ model: 'local-hash-v2' });
  });
});

describeDb('chooseEmbeddingModel, another provider’s passages', (suite) => {
  it('keeps only built-in models: passages of a provider’s model still meet the startup refusal', async () => {
    await addChunks(suite.db, 'text-embedding-3-small', 2);
    expect(await chooseEmbeddingModel(suite.db, unset)).toEqual({ model: 'local-hash-v2' });
    await expect(checkEmbeddingModel(suite.db, 'local-hash-v2')).rejects.toThrow(/2 with text-embedding-3-small/);
  });
});
