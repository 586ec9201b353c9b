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
