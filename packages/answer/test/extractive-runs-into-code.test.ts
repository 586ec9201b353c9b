import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';

// The PostgreSQL manual's UPDATE page: the sentence stops unfinished and the code below completes it.
const outputs: Passage = {
  n: 1,
  title: 'UPDATE',
  url: null,
  heading: 'UPDATE › Outputs',
  content:
    'On successful completion, an `UPDATE` command returns a command tag of the form\n\n```\nUPDATE count\n```\n\n' +
    'The `count` is the number of rows updated, including matched rows whose values did not change.',
};

describe('a sentence that runs on into a code block', () => {
  it('is quoted with the block, which finishes it', async () => {
    const { text } = await createExtractiveAnswerer().answer({ question: 'What does UPDATE report on success when there is no RETURNING clause?', passages: [outputs] });
    expect(text).toContain('> On successful completion, an `UPDATE` command returns a command tag of the form [1]\n```\nUPDATE count\n```');
  });

  it('is quoted alone when it ends as a sentence does', async () => {
    const finished = { ...outputs, content: outputs.content.replace('of the form\n', 'of the form below.\n') };
    const { text } = await createExtractiveAnswerer().answer({ question: 'What does UPDATE report on success when there is no RETURNING clause?', passages: [finished] });
    expect(text).toContain('of the form below. [1]');
    expect(text).not.toContain('```\nUPDATE count');
  });
});
