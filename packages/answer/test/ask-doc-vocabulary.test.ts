import { beforeAll, expect, it } from 'vitest';
import { audienceKeys } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { createWorkspace, queryRows, seedDocs, testLogger } from './seed.ts';

const embedder = createLocalEmbedder();
const EVERYONE = audienceKeys(['workspace']);
// The asker's words ("duplicate", "folder", "subfolders") are on the filler pages, and the page
// that answers writes none of them.
const QUESTION = 'How do I duplicate a whole folder including its subfolders?';
const FACT = 'Recursively copy an entire directory tree rooted at src to a directory named dst, and return the destination directory.';

describeDb('a question in the asker’s words, answered in the documentation’s', (suite) => {
  let ws = '';
  const { logger } = testLogger();

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'doc-words');
    await seedDocs(suite.db, ws, embedder, [
      { title: 'shutil: high-level file operations', heading: 'shutil.copytree(src, dst)', passages: [FACT, 'Permissions and times of directories are copied with copystat().'] },
      { title: 'Bookmarks', passages: ['A whole folder of bookmarks can be collapsed in the sidebar; subfolders open one level at a time.'] },
      { title: 'Mail', passages: ['To duplicate a message, drag it to another mail folder while holding the Option key.'] },
      { title: 'Printing', passages: ['Duplicate pages are skipped when the whole job is printed double-sided.'] },
      { title: 'Search', passages: ['Subfolders are searched too, including hidden ones, unless the folder is excluded.'] },
    ]);
  });

  it('searches and quotes with the documentation’s words for the asker’s phrases, and records the question as asked', async () => {
    const result = await ask({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger }, { workspaceId: ws, question: QUESTION, surface: 'cli', audience: EVERYONE });
    expect(result.grounded).toBe(true);
    // Without those words, the filler pages' sentences are all it quotes.
    expect(result.answer).toContain(FACT);
    const [row] = await queryRows(suite.db, ws);
    expect(row?.question).toBe(QUESTION);
  });
});
