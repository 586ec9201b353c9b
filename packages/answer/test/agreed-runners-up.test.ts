import { beforeAll, describe, expect, it } from 'vitest';
import { audienceKeys, matchArtifacts, withService, withWorkspace, type ArtifactMatch } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { withAgreedRunnersUp } from '../src/agreed-runners-up.ts';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { createWorkspace, seedDocs, testLogger, type SeededDoc } from './seed.ts';

function match(id: string, vectorRank: number | null, keywordRank: number | null): ArtifactMatch {
  return { chunkId: id, artifactId: `a-${id}`, title: id, url: null, heading: null, content: id, similarity: 0.5, vectorRank, keywordRank, score: 0.01, matchedBy: ['vector', 'keyword'] };
}
const ids = (list: readonly ArtifactMatch[]) => list.map((m) => m.chunkId);

describe('runners-up both legs rank near their top', () => {
  it('take the places of the lowest-ranked passages that only one leg ranks near its top', () => {
    const matches = [match('best', 1, 1), match('agreed', 3, 2), match('vector-only', 4, null), match('low', 9, 6)];
    const runnersUp = [match('second-of-best-page', 2, 3), match('weak', 12, 40), match('third-of-best-page', 1, 3), match('fourth', 2, 2)];
    // Two at most, each in the place of the weakest one not agreed on; the order read stays fused order's.
    expect(ids(withAgreedRunnersUp(matches, runnersUp))).toEqual(['best', 'agreed', 'second-of-best-page', 'third-of-best-page']);
  });

  it('never take the best passage’s place, nor that of a passage both legs agree on', () => {
    const agreed = [match('best', 6, 9), match('a', 1, 2), match('b', 2, 1)];
    expect(ids(withAgreedRunnersUp(agreed, [match('runner-up', 3, 3)]))).toEqual(['best', 'a', 'b']);
  });

  it('leave the passages as they are when no runner-up is ranked near the top by both legs', () => {
    const matches = [match('best', 1, 1), match('x', 7, null)];
    expect(ids(withAgreedRunnersUp(matches, [match('vector-only', 1, null), match('keyword-only', null, 1), match('deep', 4, 8)]))).toEqual(['best', 'x']);
  });
});

const embedder = createLocalEmbedder();
const EVERYONE = audienceKeys(['workspace']);
const QUESTION = 'Which isolation level do transactions get?';
const FACT = 'Transactions get the serializable isolation level.';

describeDb('/ask reads a second passage of the best page that both legs rank at the top', (suite) => {
  let ws = '';
  let isolation: SeededDoc;
  const { logger } = testLogger();

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'runners-up');
    [isolation] = (await seedDocs(suite.db, ws, embedder, [
      { title: 'Isolation', passages: ['Isolation level of transactions: separate connections get isolation between their transactions.', FACT] },
      { title: 'Locking', passages: ['Transactions take locks; isolation between transactions comes from the locks each level takes.'] },
      { title: 'Journal', passages: ['Transactions write a journal before they commit, at every level of the journal.'] },
      { title: 'Shell', passages: ['The shell opens a connection and runs statements one at a time.'] },
    ])) as [SeededDoc];
    await withService(suite.db, (tx) => tx.query('update workspaces set match_count = 3 where id = $1', [ws]));
  });

  it('quotes the fact that fusion’s same-page discount left out of the k', async () => {
    const [vector] = await embedder.embed([QUESTION]);
    const search = (runnersUp: number) => withWorkspace(suite.db, ws, (tx) => matchArtifacts(tx, { workspaceId: ws, audience: EVERYONE, embedding: vector, queryText: QUESTION, matchCount: 3, runnersUp }));
    const second = isolation.chunkIds[1] as string;
    // The layout this is about: the fused k leaves the page's second passage out, though both legs rank it near their top.
    const k = await search(0);
    expect(ids(k)).not.toContain(second);
    const withRunnersUp = await search(3);
    expect(ids(withRunnersUp.slice(0, 3))).toEqual(ids(k));
    const deeper = withRunnersUp.slice(3).find((m) => m.chunkId === second);
    expect(deeper?.vectorRank).toBeLessThanOrEqual(3);
    expect(deeper?.keywordRank).toBeLessThanOrEqual(3);

    const result = await ask({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger }, { workspaceId: ws, question: QUESTION, surface: 'cli', audience: EVERYONE });
    expect(result.grounded).toBe(true);
    expect(result.answer).toContain(FACT);
    expect(result.citations.map((c) => c.chunkId)).toContain(second);
  });
});
