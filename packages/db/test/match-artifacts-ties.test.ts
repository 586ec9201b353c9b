/**
 * The same pages indexed twice give the same ranking: where match_artifacts' legs tie (two
 * passages with the same words in the same proportion have the same ts_rank), the passages'
 * content decides, not their random ids.
 */
import { expect, it } from 'vitest';
import { withWorkspace } from '../src/index.ts';
import { describeDb } from '../src/testing/index.ts';
import { createArtifact, createWorkspace } from './fixtures.ts';

// Ids at either end of the order (the primary key is global, so each workspace has its own pair).
const LOW = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
const HIGH = ['ffffffff-ffff-4fff-bfff-fffffffffff1', 'ffffffff-ffff-4fff-bfff-fffffffffff2'];
const FIRST = 'Deploy windows open on Tuesday mornings.';
const SECOND = 'Deploy windows open on Thursday evenings.';

describeDb('match_artifacts ties', (suite) => {
  /** One workspace holding both passages, `FIRST` under the id given. */
  async function indexed(slug: string, firstId: string, secondId: string): Promise<string[]> {
    const ws = await createWorkspace(suite.db, slug);
    return withWorkspace(suite.db, ws, async (tx) => {
      const artifact = await createArtifact(tx, ws, 'Deploys');
      for (const [ordinal, [id, content]] of [[firstId, FIRST], [secondId, SECOND]].entries()) {
        await tx.query(
          `insert into chunks (id, workspace_id, artifact_id, ordinal, content, content_hash, is_live, embedding, embedding_model)
           values ($1, $2, $3, $4, $5, md5($5), true, array_fill(0.01, array[1536])::vector, 'test')`,
          [id, ws, artifact, ordinal, content],
        );
      }
      // Keyword only: "deploy windows open" ranks both passages alike.
      const rows = await tx.query<{ content: string; keyword_rank: number }>(
        "select content, keyword_rank from brain.match_artifacts($1::uuid, null, 'deploy windows open', 5, -1, null)",
        [ws],
      );
      return rows.map((r) => r.content);
    });
  }

  it('orders tied passages by their content, whichever ids they were given', async () => {
    const one = await indexed('ties-one', LOW[0] as string, HIGH[0] as string);
    const other = await indexed('ties-other', HIGH[1] as string, LOW[1] as string);
    expect(one).toHaveLength(2);
    expect(other).toEqual(one);
  });
});
