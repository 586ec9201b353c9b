/**
 * runners_up: rows past match_count from the same call, so /ask reads the passages just past its k
 * without searching twice, and the k itself is what a call without them returns.
 */
import { beforeAll, expect, it } from 'vitest';
import { EVERYTHING, matchArtifacts, withWorkspace, type ArtifactMatch } from '../src/index.ts';
import { describeDb } from '../src/testing/index.ts';
import { createArtifact, createWorkspace, insertChunks, nearVector, unitVector } from './fixtures.ts';

describeDb('match_artifacts runners_up', (suite) => {
  const query = unitVector(1);
  let ws = '';

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'runners-up');
    await withWorkspace(suite.db, ws, async (tx) => {
      // Three sources, so the same-source discount shapes the order as it does for real pages.
      for (const [page, title] of ['Retention', 'Backups', 'Exports'].entries()) {
        const artifact = await createArtifact(tx, ws, title);
        await insertChunks(
          tx,
          ws,
          artifact,
          Array.from({ length: 5 }, (_, i) => ({
            content: `${title} passage ${i} about retention policies and how long ${i % 2 ? 'backups' : 'exports'} are kept`,
            embedding: nearVector(query, 10 * page + i + 1, 0.2 + 0.1 * (3 * i + page)),
          })),
        );
      }
    });
  });

  const call = (matchCount: number, runnersUp: number, queryText?: string): Promise<ArtifactMatch[]> =>
    withWorkspace(suite.db, ws, (tx) => matchArtifacts(tx, { audience: EVERYTHING, workspaceId: ws, embedding: query, queryText, matchCount, runnersUp, minSimilarity: -1 }));

  it('continues the fused order past match_count, leaving the first match_count rows as they were', async () => {
    for (const text of ['retention policies backups', undefined]) {
      const k = await call(4, 0, text);
      const more = await call(4, 6, text);
      expect(k).toHaveLength(4);
      expect(more).toHaveLength(10);
      expect(more.slice(0, 4)).toEqual(k);
      const scores = more.map((m) => m.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(new Set(more.map((m) => m.chunkId)).size).toBe(10);
    }
  });

  it('refuses runners_up below 0 or past 50 rows in all, saying how many are allowed', async () => {
    await expect(call(45, 6)).rejects.toThrow(/runners_up must be between 0 and 5 \(50 rows in all\), got 6/);
    await expect(call(5, -1)).rejects.toThrow(/runners_up must be between 0 and 45/);
    expect(await call(5, 10)).toHaveLength(15);
  });
});
