import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';

// Git's FAQ: each entry is a question on a line of its own, answered by the paragraph under it.
const faq: Passage = {
  n: 1,
  title: 'gitfaq(7)',
  url: null,
  heading: 'gitfaq(7) › Configuration',
  content:
    'What should I put in `user.name`?\n\n' +
    'You should put your personal name, generally a form using a given name and family name.\n\n' +
    'What does `http.postBuffer` really do?\n\n' +
    'This option changes the size of the buffer that Git uses when pushing data to a remote over HTTP or HTTPS. ' +
    'If the data is larger than this size, libcurl will use chunked transfer encoding.\n\n' +
    'Leaving this value at the default size is fine unless a proxy in the middle is known to be broken.',
};

describe('a question the page asks itself', () => {
  it('is quoted with the paragraph that answers it', async () => {
    const answer = await createExtractiveAnswerer().answer({ question: 'What does http.postBuffer actually control?', passages: [faq] });
    expect(answer.text).toContain(
      '> What does `http.postBuffer` really do? This option changes the size of the buffer that Git uses when pushing data to a remote over HTTP or HTTPS.',
    );
  });

  it('leaves a paragraph that does not follow a question to stand on its own terms', async () => {
    const passage: Passage = { ...faq, content: faq.content.replace('What does `http.postBuffer` really do?', 'The `http.postBuffer` setting is described below.') };
    const answer = await createExtractiveAnswerer().answer({ question: 'What is the http.postBuffer setting?', passages: [passage] });
    expect(answer.text).toContain('> The `http.postBuffer` setting is described below. [1]');
  });
});
