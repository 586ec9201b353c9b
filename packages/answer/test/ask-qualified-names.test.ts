import { beforeAll, expect, it } from 'vitest';
import { audienceKeys, matchArtifacts, withService, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { nothingCovers } from '../src/messages.ts';
import { createWorkspace, seedDocs, testLogger, type SeededDoc } from './seed.ts';

const embedder = createLocalEmbedder();
const EVERYONE = audienceKeys(['workspace']);
const QUESTION = 'What does http.postBuffer actually control?';
const FACT = 'Maximum size in bytes of the buffer used by smart HTTP transports when POSTing data to the remote system.';

// Every other word of the question, many times over: the fused search ranks these first.
function filler(i: number): string {
  return `Merge strategy ${i}: the http remote actually controls what the merge does, and the control over an http fetch is actually what the http transport controls.`;
}

describeDb('a qualified name the index holds as one word ("http.postBuffer")', (suite) => {
  let ws = '';
  let config: SeededDoc;
  const { logger } = testLogger();
  const deps = () => ({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger });

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'qualified');
    const docs = await seedDocs(suite.db, ws, embedder, [
      { title: 'git-config', heading: 'Variables', passages: [`http.postBuffer\n\n${FACT} Requests larger than this buffer use chunked transfer encoding.`] },
      ...Array.from({ length: 12 }, (_, i) => ({ title: `git-merge ${i}`, passages: [filler(i)] })),
    ]);
    config = docs[0] as SeededDoc;
    await withService(suite.db, (tx) => tx.query('update workspaces set match_count = 3 where id = $1', [ws]));
  });

  it('reads the passage that writes the name, though its last word alone is in no passage’s index', async () => {
    const [vector] = await embedder.embed([QUESTION]);
    const searched = await withWorkspace(suite.db, ws, (tx) => matchArtifacts(tx, { workspaceId: ws, audience: EVERYONE, embedding: vector, queryText: QUESTION, matchCount: 3 }));
    // The layout this is about: the fused search ranks the passages sharing the everyday words first.
    expect(searched.map((m) => m.chunkId)).not.toContain(config.chunkIds[0]);

    const result = await ask(deps(), { workspaceId: ws, question: QUESTION, surface: 'cli', audience: EVERYONE });
    expect(result.grounded).toBe(true);
    expect(result.answer).toContain(FACT);
    expect(result.citations.map((c) => c.chunkId)).toContain(config.chunkIds[0]);
  });

  it('still says nothing saved covers a qualified name no page writes', async () => {
    const result = await ask(deps(), { workspaceId: ws, question: 'What does http.turboBuffer actually control?', surface: 'cli', audience: EVERYONE });
    expect(result).toMatchObject({ answer: nothingCovers(['http.turboBuffer']), grounded: false, citations: [] });
  });
});
