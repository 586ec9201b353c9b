import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';

// Two settings of one reference page, in two passages: the better-ranked one describes another
// setting in terms of the one asked about.
const multiplier: Passage = {
  n: 1,
  title: 'Resource Consumption',
  url: null,
  heading: 'Resource Consumption › Memory',
  content:
    'This makes it possible for hash-based operations to use memory beyond the usual `work_mem` amount.\n\n' +
    '`hash_mem_multiplier` (`floating point`)\n\n' +
    'Used to compute the maximum amount of memory that hash-based operations can use. The default value is 2.0, which makes hash-based operations use twice the usual `work_mem` base amount.',
};
const workMem: Passage = {
  n: 6,
  title: 'Resource Consumption',
  url: null,
  heading: 'Resource Consumption › Memory',
  content:
    '`work_mem` (`integer`)\n\n' +
    'Sets the base maximum amount of memory to be used by a query operation before writing to temporary disk files. The default value is four megabytes (`4MB`).',
};

describe('a question that names a setting of the page', () => {
  it('answers from that setting’s own section, not from another setting’s that mentions it in a better-ranked passage', async () => {
    // Ranked sixth, as a further passage of the page is.
    const between = [2, 3, 4, 5].map((n): Passage => ({ n, title: 'Other', url: null, heading: 'Other', content: `Unrelated setting ${n} controls logging of checkpoints.` }));
    const answer = await createExtractiveAnswerer().answer({ question: 'What is the default value of work_mem?', passages: [multiplier, ...between, workMem] });
    const quoted = answer.text.split('\n').slice(1);
    expect(quoted[0]).toBe('> `work_mem` (`integer`) [6]');
    expect(quoted[1]).toContain('The default value is four megabytes (`4MB`).');
  });
});

describe('the description of an option the question names', () => {
  // git-stash(1)'s options: each opens with the same line of which commands take it.
  const options: Passage = {
    n: 1,
    title: 'git-stash(1)',
    url: null,
    heading: 'git-stash(1) › OPTIONS',
    content: [
      '-a, --all',
      'This option is only valid for `push` and `save` commands.',
      'All ignored and untracked files are also stashed and then cleaned up with `git clean`.',
      '-k, --keep-index, --no-keep-index',
      'This option is only valid for `push` and `save` commands.',
      'All changes already added to the index are left intact.',
      '-p, --patch',
      'This option is only valid for `push` and `save` commands.',
      'Interactively select hunks from the diff between HEAD and the working tree to be stashed.',
    ].join('\n\n'),
  };

  it('is quoted on past the paragraph that opens it, to the one that says what it does', async () => {
    const answer = await createExtractiveAnswerer().answer({ question: 'What does git stash push --keep-index do?', passages: [options] });
    const quoted = answer.text.split('\n').filter((line) => line.startsWith('> '));
    const under = quoted.findIndex((line) => line.startsWith('> -k, --keep-index'));
    expect(under).toBeGreaterThanOrEqual(0);
    expect(quoted[under + 1]).toContain('All changes already added to the index are left intact.');
  });
});
