import { beforeAll, expect, it } from 'vitest';
import { audienceKeys, matchArtifacts, withService, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { namedPassages } from '../src/named-passages.ts';
import type { TermStats } from '../src/text/term-weights.ts';
import type { ContextMatch } from '../src/types.ts';
import { createWorkspace, queryRows, seedDocs, testLogger, type SeededDoc } from './seed.ts';

const embedder = createLocalEmbedder();
const STAFF = 'channel:200000000000000001';
const EVERYONE = audienceKeys(['workspace']);
// Every word but "IFNULL" is in every filler passage: the fused search ranks those first.
const QUESTION = 'What replaces IFNULL when a null value comes back from a query in other database systems?';
const FACT = 'This function provides capabilities similar to `IFNULL`, which is used in some other systems.';
const STATS: TermStats = { documents: 20, frequencies: new Map([['replac', 12], ['ifnul', 1], ['null', 12], ['valu', 12], ['come', 12], ['back', 12], ['queri', 12], ['databas', 12], ['system', 12]]), cap: 20 };

function filler(i: number): string {
  return `A null value ${i} comes back from a query when the database systems replace the value; the query value comes back null in other database systems.`;
}

/** A passage as the answer would read it. */
function contextOf(doc: SeededDoc, content: string): ContextMatch {
  return { chunkId: doc.chunkIds[0] as string, artifactId: doc.artifactId, title: 'Filler', url: null, heading: null, content, similarity: 0.9, vectorRank: 1, keywordRank: 1, score: 1, matchedBy: ['vector', 'keyword'] };
}

describeDb('passages that hold a rare name the question asks about', (suite) => {
  let ws = '';
  let coalesce: SeededDoc;
  let staffOnly: SeededDoc;
  let fillers: SeededDoc[] = [];
  const { logger } = testLogger();

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'named');
    const docs = await seedDocs(suite.db, ws, embedder, [
      { title: 'COALESCE', passages: [`Like a \`CASE\` expression, \`COALESCE\` evaluates only the arguments it needs. ${FACT}`] },
      { title: 'Staff notes', passages: ['Staff only: IFNULL is banned in our code review.'] },
      ...Array.from({ length: 12 }, (_, i) => ({ title: `Filler ${i}`, passages: [filler(i)] })),
    ]);
    [coalesce, staffOnly] = docs as [SeededDoc, SeededDoc];
    fillers = docs.slice(2);
    await withService(suite.db, (tx) => tx.query('update artifacts set audience = $2 where id = $1', [staffOnly.artifactId, STAFF]));
  });

  it('adds the passage holding the name when nothing read holds it, and only what the audience may see', async () => {
    const context = [contextOf(fillers[0] as SeededDoc, filler(0))];
    const everyone = await namedPassages(suite.db, { workspaceId: ws, audience: EVERYONE, question: QUESTION, context, termStats: STATS });
    expect(everyone.map((m) => m.chunkId)).toEqual([coalesce.chunkIds[0]]);
    expect(everyone[0]).toMatchObject({ artifactId: coalesce.artifactId, matchedBy: ['keyword'] });
    const staff = await namedPassages(suite.db, { workspaceId: ws, audience: audienceKeys(['workspace', STAFF]), question: QUESTION, context, termStats: STATS });
    expect(staff.map((m) => m.chunkId).sort()).toEqual([coalesce.chunkIds[0], staffOnly.chunkIds[0]].sort());
  });

  it('adds nothing when a passage read already holds the name, or the name is common or in nothing saved', async () => {
    const holding = [contextOf(fillers[0] as SeededDoc, 'IFNULL is mentioned here.')];
    expect(await namedPassages(suite.db, { workspaceId: ws, audience: EVERYONE, question: QUESTION, context: holding, termStats: STATS })).toEqual([]);
    const context = [contextOf(fillers[0] as SeededDoc, filler(0))];
    const common: TermStats = { ...STATS, frequencies: new Map([...STATS.frequencies, ['ifnul', 12]]) };
    expect(await namedPassages(suite.db, { workspaceId: ws, audience: EVERYONE, question: QUESTION, context, termStats: common })).toEqual([]);
    const absent: TermStats = { ...STATS, frequencies: new Map([...STATS.frequencies, ['ifnul', 0]]) };
    expect(await namedPassages(suite.db, { workspaceId: ws, audience: EVERYONE, question: QUESTION, context, termStats: absent })).toEqual([]);
  });

  it('lets /ask quote the passage naming it when the search ranked only passages sharing the question’s other words', async () => {
    await withService(suite.db, (tx) => tx.query('update workspaces set match_count = 3 where id = $1', [ws]));
    const [vector] = await embedder.embed([QUESTION]);
    const searched = await withWorkspace(suite.db, ws, (tx) => matchArtifacts(tx, { workspaceId: ws, audience: EVERYONE, embedding: vector, queryText: QUESTION, matchCount: 3 }));
    // The layout this is about: the fused search alone does not read the passage that names IFNULL.
    expect(searched.map((m) => m.chunkId)).not.toContain(coalesce.chunkIds[0]);

    const result = await ask({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger }, { workspaceId: ws, question: QUESTION, surface: 'cli', audience: EVERYONE });
    expect(result.grounded).toBe(true);
    expect(result.answer).toContain(FACT);
    expect(result.answer).not.toContain('banned');
    expect(result.citations.map((c) => c.chunkId)).toContain(coalesce.chunkIds[0]);
    const [row] = await queryRows(suite.db, ws);
    expect(row?.retrieved.at(-1)).toMatchObject({ chunk_id: coalesce.chunkIds[0], matched_by: ['keyword'] });
  });
});
