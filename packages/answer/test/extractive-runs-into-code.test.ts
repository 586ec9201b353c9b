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

// Django's "Tagging tests": each command is shown in two shells, under tabs whose icon glyphs are
// left as a line of symbols between the sentence and its code.
const tagging: Passage = {
  n: 1,
  title: 'Testing tools',
  url: null,
  heading: 'Testing tools › Tagging tests',
  content:
    'You can also exclude tests by tag. To run core tests if they are not slow:\n\n\uf17c/\uf179 \uf17a\n\n```\n$ ./manage.py test --tag=core --exclude-tag=slow\n```\n\n' +
    '```\n...\\> manage.py test --tag=core --exclude-tag=slow\n```\n\n`test --exclude-tag` has precedence over `test --tag`.',
};
// A sentence announcing an example far too long to show in an answer.
const middleware: Passage = {
  n: 1,
  title: 'Middleware',
  url: null,
  heading: 'Middleware › Writing your own middleware',
  content: `Middleware can be written as a function that looks like this:\n\n\`\`\`\n${Array.from({ length: 20 }, (_, i) => `    step_${i}(request)`).join('\n')}\n\`\`\`\n\nA middleware factory is called once, when the web server starts.`,
};

describe('a sentence that announces code', () => {
  it('is quoted with its code across a line of bare symbols', async () => {
    const { text } = await createExtractiveAnswerer().answer({ question: 'How do I run the core tests but not the slow ones?', passages: [tagging] });
    expect(text).toContain('To run core tests if they are not slow: [1]\n```\n$ ./manage.py test --tag=core --exclude-tag=slow\n```');
  });

  it('is not quoted alone when its code is too long to show, nor when the passage ends at its colon', async () => {
    const { text } = await createExtractiveAnswerer().answer({ question: 'How is middleware written as a function, and when is a middleware factory called?', passages: [middleware] });
    expect(text).toContain('> A middleware factory is called once, when the web server starts. [1]');
    expect(text).not.toContain('looks like this:');
    const cut: Passage = { ...middleware, content: 'A middleware factory is called once, when the web server starts.\n\nMiddleware can be written as a function that looks like this:' };
    const alone = await createExtractiveAnswerer().answer({ question: 'How is middleware written as a function, and when is a middleware factory called?', passages: [cut] });
    expect(alone.text).not.toContain('looks like this:');
    expect(alone.text).toContain('> A middleware factory is called once, when the web server starts. [1]');
  });

  it('is quoted when it states a fact and something of its own follows', async () => {
    const windows: Passage = { n: 1, title: 'Window Functions', url: null, heading: 'Window Functions › Built-in Window Functions', content: 'SQLite supports the following 11 built-in window functions:\n\nrow_number()\n\nThe number of the row within the current partition.' };
    const { text } = await createExtractiveAnswerer().answer({ question: 'How many built-in window functions does SQLite support?', passages: [windows] });
    expect(text).toContain('SQLite supports the following 11 built-in window functions: [1]');
  });
});
