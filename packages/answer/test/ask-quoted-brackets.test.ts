import { beforeAll, expect, it } from 'vitest';
import { audienceKeys } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { createWorkspace, seedDocs, testLogger } from './seed.ts';

const embedder = createLocalEmbedder();
const EVERYONE = audienceKeys(['workspace']);
const EXAMPLE = "json_set('[0,1,2]','$[#]','new') → '[0,1,2,\"new\"]'";

describeDb('an extractive answer quoting a page whose text holds brackets like markers', (suite) => {
  let ws = '';
  const { logger, lines } = testLogger();
  const deps = () => ({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger });

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'quoted-brackets');
    // SQLite's JSON page writes its examples as plain text, not code.
    await seedDocs(suite.db, ws, embedder, [
      {
        title: 'JSON Functions',
        heading: 'Array indexes',
        passages: [`The array index can be just the # character, for example when appending a value to an existing JSON array: ${EXAMPLE}`],
      },
      { title: 'JSON Functions', heading: 'json_remove', passages: ['The json_remove(X,P,...) function returns a copy of the JSON given as its X parameter with all the elements identified by path arguments removed.'] },
      { title: 'Core Functions', heading: 'length', passages: ['For a string value X, the length(X) function returns the number of characters (not bytes) in X prior to the first NUL character.'] },
    ]);
  });

  it('shows the quotation as the page wrote it, and cites only its own marker', async () => {
    const out = await ask(deps(), { workspaceId: ws, question: 'How do I append a value to an existing JSON array?', surface: 'cli', audience: EVERYONE });
    expect(out.grounded).toBe(true);
    expect(out.answer).toContain(EXAMPLE);
    expect(out.citations).toHaveLength(1);
    expect(lines().filter((l) => l.msg === 'ask: the answer cited passages it was not given, or misquoted them; removed')).toEqual([]);
  });
});
