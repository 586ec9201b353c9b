import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';
import { workspaceCounts } from './term-stats.ts';

// SQLite's page on its temporary files, saved alone (23 passages): "SQLite", "temporary" and
// "files" are on nearly all of them, "distinct" on three ("distinctive", "the DISTINCT keyword"),
// and "many" on the introduction only.
const page = (n: number, heading: string, content: string): Passage => ({ n, title: 'Temporary Files Used By SQLite', url: null, heading: `Temporary Files Used By SQLite › ${heading}`, content });
const intro = page(
  1,
  '1. Introduction',
  'One of the distinctive features of SQLite is that a database consists of a single disk file.\n\nBut while a complete database is held in a single disk file, SQLite does make use of many temporary files during the course of processing a database.',
);
const kinds = page(2, '2. Nine Kinds Of Temporary Files', 'SQLite currently uses nine distinct types of temporary files:\n\n- Rollback journals\n- Super-journals\n- Write-ahead Log (WAL) files\n- Shared-memory files');
const termStats = workspaceCounts(23, { sqlite: 23, temporary: 20, files: 23, file: 23, distinct: 3, kinds: 2, many: 1, uses: 12 });

describe('a question asking how many', () => {
  it('quotes first the sentence that counts them, not the one that says "many"', async () => {
    const answer = await createExtractiveAnswerer().answer({ question: 'How many distinct kinds of temporary files does SQLite use?', passages: [intro, kinds], termStats });
    const first = answer.text.split('\n').find((line) => line.startsWith('> '));
    expect(first).toContain('SQLite currently uses nine distinct types of temporary files:');
  });
});
