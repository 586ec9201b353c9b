import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';

// The PostgreSQL manual's COALESCE section: the sentence that matches the question ("…similar to
// `NVL` and `IFNULL`") names the function only as "This SQL-standard function".
const coalesce: Passage = {
  n: 1,
  title: '9.18. Conditional Expressions',
  url: null,
  heading: '9.18. Conditional Expressions › 9.18.2. COALESCE',
  content:
    'The arguments must all be convertible to a common data type, which will be the type of the result.\n\n' +
    'Like a `CASE` expression, `COALESCE` only evaluates the arguments that are needed to determine the result. ' +
    'This SQL-standard function provides capabilities similar to `NVL` and `IFNULL`, which are used in some other database systems.',
};

describe('a sentence that opens by pointing back', () => {
  it('is quoted with the sentence before it, which says what it points at', async () => {
    const answer = await createExtractiveAnswerer().answer({ question: 'What is the equivalent of IFNULL or NVL from other databases?', passages: [coalesce] });
    expect(answer.text).toContain(
      '> Like a `CASE` expression, `COALESCE` only evaluates the arguments that are needed to determine the result. This SQL-standard function provides capabilities similar to `NVL` and `IFNULL`, which are used in some other database systems. [1]',
    );
  });

  it('is quoted alone when it opens its paragraph: the sentence before is about something else', async () => {
    const passage: Passage = { ...coalesce, content: coalesce.content.replace('the result. This SQL-standard', 'the result.\n\nThis SQL-standard') };
    const answer = await createExtractiveAnswerer().answer({ question: 'What is the equivalent of IFNULL or NVL from other databases?', passages: [passage] });
    expect(answer.text).toContain('> This SQL-standard function provides capabilities similar to `NVL` and `IFNULL`, which are used in some other database systems. [1]');
    expect(answer.text).not.toContain('only evaluates the arguments that are needed to determine the result. This');
  });
});

// Python's json module: the sentence naming the question's parameter as false says "these
// characters", which the sentence before it names.
const jsonEncoder: Passage = {
  n: 1,
  title: 'json — JSON encoder and decoder',
  url: null,
  heading: 'json — JSON encoder and decoder › Encoders and Decoders',
  content:
    'Extensible JSON encoder for Python data structures. ' +
    'If ensure_ascii is true (the default), the output is guaranteed to have all incoming non-ASCII characters escaped. ' +
    'If ensure_ascii is false, these characters will be output as-is.',
};

describe('a sentence that points back after a condition', () => {
  it('is quoted with the sentence it points at', async () => {
    const answer = await createExtractiveAnswerer().answer({ question: 'What happens when ensure_ascii is false?', passages: [jsonEncoder] });
    expect(answer.text).toContain(
      '> If ensure_ascii is true (the default), the output is guaranteed to have all incoming non-ASCII characters escaped. If ensure_ascii is false, these characters will be output as-is. [1]',
    );
  });

  it('is quoted alone when its condition names what it is about', async () => {
    const passage: Passage = { ...jsonEncoder, content: jsonEncoder.content.replace('these characters', 'non-ASCII characters') };
    const answer = await createExtractiveAnswerer().answer({ question: 'What happens when ensure_ascii is false?', passages: [passage] });
    expect(answer.text).toContain('> If ensure_ascii is false, non-ASCII characters will be output as-is. [1]');
    expect(answer.text).not.toContain('escaped. If ensure_ascii is false');
  });
});
