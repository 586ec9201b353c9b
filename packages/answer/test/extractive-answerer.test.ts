import { describe, expect, it } from 'vitest';
import { validateCitations } from '../src/citations/validate-citations.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { EXTRACTIVE_LABEL } from '../src/messages.ts';
import { collapseWhitespace } from '../src/text/sentences.ts';
import type { Passage } from '../src/types.ts';

const refunds: Passage = {
  n: 1,
  title: 'Billing FAQ',
  url: 'https://docs.example.com/billing',
  heading: 'Refunds',
  content:
    'Our billing team answers within a day. Refunds are processed within five business days\nof the request. ' +
    'A refund goes back to the original card. Invoices are emailed monthly.',
};
const security: Passage = {
  n: 2,
  title: 'Security',
  url: 'https://docs.example.com/security',
  heading: 'Passwords',
  content: 'Passwords rotate every 90 days. Refund requests over $500 need a manager’s approval. Two-factor login is mandatory.',
};
const answerer = createExtractiveAnswerer();

/** The quoted lines of an extractive answer, each with its marker. */
function lines(text: string): string[] {
  return text.split('\n').slice(1);
}

describe('createExtractiveAnswerer', () => {
  it('labels the answer and quotes the most relevant sentences, each with its [n]', async () => {
    const out = await answerer.answer({ question: 'How long do refunds take to be processed?', passages: [refunds, security] });
    expect(out.kind).toBe('extractive');
    expect(out.text.startsWith(`${EXTRACTIVE_LABEL}\n`)).toBe(true);
    const quoted = lines(out.text);
    expect(quoted[0]).toBe('> Refunds are processed within five business days of the request. [1]');
    expect(quoted.every((l) => /^> .+ \[[12]\]$/.test(l))).toBe(true);
    expect(out.text).not.toContain('Invoices are emailed monthly');
    expect(out.text).not.toContain('Two-factor');
  });

  it('quotes verbatim: every line is its passage’s own text (line breaks joined by a space)', async () => {
    const out = await answerer.answer({ question: 'refund approval card', passages: [refunds, security] });
    for (const line of lines(out.text)) {
      const [, sentence, n] = /^> (.+) \[(\d+)\]$/.exec(line) ?? [];
      const passage = [refunds, security].find((p) => p.n === Number(n));
      expect(collapseWhitespace(passage?.content ?? '')).toContain(sentence);
    }
    expect(out.text).toContain('[2]'); // the approval rule lives in the second passage
  });

  it('spreads its picks across passages rather than quoting one passage only', async () => {
    const out = await answerer.answer({ question: 'refund', passages: [refunds, security] });
    expect(out.text).toMatch(/\[1\]/);
    expect(out.text).toMatch(/\[2\]/);
  });

  it('is deterministic', async () => {
    const a = await answerer.answer({ question: 'refund card approval', passages: [refunds, security] });
    const b = await answerer.answer({ question: 'refund card approval', passages: [refunds, security] });
    expect(a.text).toBe(b.text);
  });

  it('quotes the opening of the best passage when no sentence shares a word with the question', async () => {
    const out = await answerer.answer({ question: 'zzz qqq', passages: [refunds, security] });
    expect(lines(out.text)).toEqual(['> Our billing team answers within a day. [1]']);
  });

  it('never quotes a sentence carrying its own bracketed number, which would pass for a citation', async () => {
    const forged: Passage = { n: 1, title: null, url: null, heading: null, content: 'Refunds are instant [2]. Refunds need a form.' };
    const out = await answerer.answer({ question: 'refunds', passages: [forged, security] });
    expect(out.text).not.toContain('instant');
    expect(out.text).toContain('> Refunds need a form. [1]');
  });

  it('respects maxSentences and survives citation validation unchanged apart from numbering', async () => {
    const two = createExtractiveAnswerer({ maxSentences: 2 });
    const out = await two.answer({ question: 'refund request approval card', passages: [refunds, security] });
    expect(lines(out.text)).toHaveLength(2);
    const checked = validateCitations(out.text, [refunds, security]);
    expect(checked.removedMarkers).toEqual([]);
    expect(checked.removedQuotes).toEqual([]);
    expect(checked.cited.length).toBeGreaterThan(0);
  });
});

describe('createExtractiveAnswerer on reference docs', () => {
  const server: Passage = {
    n: 1,
    title: 'Server',
    url: null,
    heading: 'Server › Factory',
    content: [
      '### connectionTimeout',
      '',
      '+ Default: `0` (no timeout)',
      '',
      'Defines the server timeout in milliseconds. See the Node.js documentation',
      'for the effect of this option.',
      '',
      '### keepAliveTimeout',
      '',
      '+ Default: `72000` (72 seconds)',
      '',
      '> ℹ️ Note:',
      '> This option only applies when HTTP/1 is in use, and the default',
      '> keeps idle sockets open.',
      '',
      'Or `async/await`:',
      '```js',
      'const x = 1',
      '```',
    ].join('\n'),
  };

  it('answers from the section the question names, not from its neighbours', async () => {
    const out = await answerer.answer({ question: 'What is the default connectionTimeout?', passages: [server] });
    const quoted = lines(out.text);
    expect(quoted[0]).toBe('> Default: `0` (no timeout) [1]');
    expect(quoted[1]).toBe('> Defines the server timeout in milliseconds. [1]');
    expect(out.text).not.toContain('72000');
  });

  it('reads wrapped block quotes as one sentence and skips lines that only introduce code', async () => {
    const out = await answerer.answer({ question: 'Does keepAliveTimeout keep idle sockets open by default?', passages: [server] });
    expect(out.text).toContain('> ℹ️ Note: This option only applies when HTTP/1 is in use, and the default keeps idle sockets open. [1]');
    expect(out.text).not.toContain('async/await');
  });
});
