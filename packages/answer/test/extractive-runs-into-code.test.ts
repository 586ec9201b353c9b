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

// The debug package's README: a section's one sentence says how, and the example under it shows it.
const powershell: Passage = {
  n: 1,
  title: 'debug',
  url: null,
  heading: 'debug › Usage › Windows command prompt notes › PowerShell (VS Code default)',
  content:
    'PowerShell uses different syntax to set environment variables.\n\n```cmd\n$env:DEBUG = "*,-not_this"\n```\n\n' +
    'Example:\n\n```cmd\n$env:DEBUG=\'app\';node app.js\n```\n\nThen, run the program to be debugged as usual.',
};

describe('the example under the sentence that says how', () => {
  it('is shown for a question asking how to do it', async () => {
    const { text } = await createExtractiveAnswerer().answer({ question: 'How do I set the DEBUG variable in Windows PowerShell?', passages: [powershell] });
    expect(text).toContain('> PowerShell uses different syntax to set environment variables. [1]\n```cmd\n$env:DEBUG = "*,-not_this"\n```');
  });

  it('is left out for a question that asks what something is or says', async () => {
    const { text } = await createExtractiveAnswerer().answer({ question: 'Does PowerShell use a different syntax for environment variables?', passages: [powershell] });
    expect(text).toContain('> PowerShell uses different syntax to set environment variables. [1]');
    expect(text).not.toContain('$env:DEBUG = "*,-not_this"');
  });
});
