import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { toVectorLiteral, withService, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { checkEmbeddingModel, createLocalEmbedder } from '../src/index.ts';

const [vector] = await createLocalEmbedder().embed(['a passage']);

async function addChunks(db: Database, model: string | null, count: number): Promise<void> {
  await withService(db, async (tx) => {
    const slug = `ws-${randomUUID().slice(0, 8)}`;
    const [workspace] = await tx.query<{ id: string }>('insert into workspaces (slug, name) values ($1, $1) returning id', [slug]);
    const [artifact] = await tx.query<{ id: string }>(
      `insert into artifacts (workspace_id, kind, source_key, title, status) values ($1, 'text', $2, 'A source', 'ready') returning id`,
      [workspace?.id, `text:${slug}`],
    );
    for (let i = 0; i < count; i++) {
      await tx.query(
        `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash, embedding, embedding_model, is_live)
         values ($1, $2, $3::int, 'text', md5($3::int::text), $4::vector, $5, $6)`,
        [workspace?.id, artifact?.id, i, model ? toVectorLiteral(vector as number[]) : null, model, model !== null],
      );
    }
  });
}

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
