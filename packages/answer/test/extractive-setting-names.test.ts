import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';

// A router's README: its two slash options named on most of its passages, as a short page does.
const page = (n: number, heading: string, content: string): Passage => ({ n, title: 'find-my-way', url: null, heading: `find-my-way › API › ${heading}`, content });
const passages = [
  page(1, 'removeDuplicateSlashes(path)', 'Collapse consecutive `/` characters in a path into a single slash. This is the same normalization used internally when `ignoreDuplicateSlashes` is set.'),
  page(
    2,
    'FindMyWay([options])',
    'Trailing slashes can be ignored by supplying the `ignoreTrailingSlash` option.\n\n' +
      'Duplicate slashes can be ignored by supplying the `ignoreDuplicateSlashes` option.\n\n' +
      'Note that when `ignoreTrailingSlash` and `ignoreDuplicateSlashes` are both set to true, duplicate slashes will first be removed and then trailing slashes will, meaning `//a//b//c//` will be converted to `/a/b/c`.',
  ),
  page(3, 'trimLastSlash(path)', 'Remove one trailing slash from a path. This is the same normalization used internally when `ignoreTrailingSlash` is set.'),
  page(4, 'Compiler mode', 'Static parts become inline char comparisons, and lookups become faster once `ignoreTrailingSlash` or `ignoreDuplicateSlashes` routes are set and compiled.'),
];

describe('a question that writes settings by their names', () => {
  it('quotes a lower passage that names them together, though the page names each on most passages', async () => {
    const answer = await createExtractiveAnswerer().answer({
      question: 'What does //a//b//c// become when ignoreTrailingSlash and ignoreDuplicateSlashes are both set?',
      passages,
    });
    expect(answer.text).toContain('meaning `//a//b//c//` will be converted to `/a/b/c`. [2]');
  });
});
