import { beforeAll, expect, it } from 'vitest';
import { EVERYTHING } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { isAppError } from '@brain/errors';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { createWorkspace, queryRows, seedDocs, testLogger } from './seed.ts';

const embedder = createLocalEmbedder();

// PGlite does not enforce statement_timeout: before the search had a deadline of its own, a search
// slower than SEARCH_TIMEOUT ran to its end on the embedded default, however long that took.
describeDb('a search past its deadline', (suite) => {
  let workspace = '';
  const { logger } = testLogger();
  const deps = (searchMs: number) => ({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger, timeouts: { searchMs } });
  const question = 'When are refunds processed?';

  beforeAll(async () => {
    workspace = await createWorkspace(suite.db, 'deadline');
    await seedDocs(suite.db, workspace, embedder, [
      { title: 'Billing FAQ', passages: ['Refunds are processed within five business days of the request.'] },
      ...Array.from({ length: 40 }, (_, i) => ({ title: `Note ${i}`, passages: [`Meeting note ${i}: the refunds dashboard was reviewed and processed tickets were counted.`] })),
    ]);
  });

  it('fails with SEARCH_TIMEOUT on either engine, records it, and leaves the database to the next ask', async () => {
    const failure = await ask(deps(1), { workspaceId: workspace, question, surface: 'discord', audience: EVERYTHING }).catch((e: unknown) => e);
    expect(isAppError(failure, 'SEARCH_TIMEOUT'), String(failure)).toBe(true);
    expect((failure as { userMessage: string }).userMessage).toBe('Searching the saved sources took too long.');
    expect((await queryRows(suite.db, workspace)).at(-1)).toMatchObject({ question, error_code: 'SEARCH_TIMEOUT', grounded: false });

    const answered = await ask(deps(30_000), { workspaceId: workspace, question, surface: 'discord', audience: EVERYTHING });
    expect(answered.grounded, answered.answer).toBe(true);
    expect(answered.answer).toContain('five business days');
  });
});
