import { beforeAll, expect, it } from 'vitest';
import { audienceKeys } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { nothingCovers } from '../src/messages.ts';
import { createWorkspace, queryRows, seedDocs, testLogger } from './seed.ts';

const embedder = createLocalEmbedder();
const EVERYONE = audienceKeys(['workspace']);

describeDb('a setting or an option the workspace does not have, though its words are saved', (suite) => {
  let ws = '';
  const { logger } = testLogger();
  const deps = () => ({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger });

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'code-names');
    // Every word of "fast_mode" and "--turbo" is saved, in prose and in other names.
    await seedDocs(suite.db, ws, embedder, [
      { title: 'pickle', heading: 'Pickler.fast', passages: ['Deprecated. Enable fast mode if set to a true value; the fast mode disables the memo.', 'Set `Pickler.dispatch_table` to change how objects are reduced.'] },
      { title: 'json', heading: 'json.dumps(obj, *, indent=None)', passages: ['Serialize obj to a JSON formatted str. If indent is a non-negative integer, the output is pretty-printed.'] },
      { title: 'Command line', heading: 'Options', passages: ['Run `python --turbo-off` to disable the turbo cache; `-O` removes assert statements.'] },
    ]);
  });

  it('says nothing saved covers it, naming it as the asker wrote it, and still answers the names that are saved', async () => {
    const arg = await ask(deps(), { workspaceId: ws, question: 'What does the fast_mode argument of json.dumps do?', surface: 'cli', audience: EVERYONE });
    expect(arg).toMatchObject({ answer: nothingCovers(['fast_mode']), grounded: false, citations: [] });
    const flag = await ask(deps(), { workspaceId: ws, question: 'What does the --turbo flag of the python command do?', surface: 'cli', audience: EVERYONE });
    expect(flag).toMatchObject({ answer: nothingCovers(['--turbo']), grounded: false });
    // Written whole, though with a qualifier before it: answered.
    const saved = await ask(deps(), { workspaceId: ws, question: 'What does dispatch_table change?', surface: 'cli', audience: EVERYONE });
    expect(saved.grounded).toBe(true);
    expect(saved.answer).toContain('Pickler.dispatch_table');
    const option = await ask(deps(), { workspaceId: ws, question: 'What does -O do?', surface: 'cli', audience: EVERYONE });
    expect(option.grounded).toBe(true);
    expect((await queryRows(suite.db, ws)).map((r) => r.grounded).sort()).toEqual([false, false, true, true]);
  });
});
