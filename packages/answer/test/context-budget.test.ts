import { describe, expect, it } from 'vitest';
import { applyContextBudget, cutToRelevantRun, cutToTokens } from '../src/context-budget.ts';
import type { Passage } from '../src/types.ts';

// One token per word keeps the arithmetic of these tests readable.
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const passage = (n: number, count: number): Passage => ({
  n,
  title: `T${n}`,
  url: null,
  heading: null,
  content: Array.from({ length: count }, (_, i) => (i % 10 === 9 ? `w${i}.` : `w${i}`)).join(' '),
});

describe('applyContextBudget', () => {
  it('changes nothing when everything fits', () => {
    const ps = [passage(1, 100), passage(2, 100)];
    const out = applyContextBudget(ps, { maxTokens: 250, estimate: words });
    expect(out).toMatchObject({ trimmed: false, dropped: [], cut: [], tokens: 200 });
    expect(out.passages).toEqual(ps);
  });

  it('cuts the longest passages to a common cap and keeps the short ones whole', () => {
    const ps = [passage(1, 1000), passage(2, 100), passage(3, 600), passage(4, 50), passage(5, 400)];
    const out = applyContextBudget(ps, { maxTokens: 1000, estimate: words });
    expect(out.trimmed).toBe(true);
    expect(out.dropped).toEqual([]);
    expect(out.cut.sort()).toEqual([1, 3, 5]);
    expect(out.tokens).toBeLessThanOrEqual(1000);
    expect(out.passages.map((p) => p.n)).toEqual([1, 2, 3, 4, 5]);
    expect(out.passages[1]).toEqual(ps[1]);
    for (const p of out.passages.filter((p) => p.truncated)) {
      expect(ps[p.n - 1]?.content.startsWith(p.content)).toBe(true);
      expect(p.content.endsWith('.')).toBe(true); // cut at a sentence end
    }
  });

  it('drops the lowest-ranked passages when the common cap would be too small', () => {
    const ps = [1, 2, 3, 4, 5].map((n) => passage(n, 500));
    const out = applyContextBudget(ps, { maxTokens: 300, minTokensPerPassage: 100, estimate: words });
    expect(out.dropped).toEqual([4, 5]);
    expect(out.passages.map((p) => p.n)).toEqual([1, 2, 3]);
    expect(out.tokens).toBeLessThanOrEqual(300);
  });

  it('cuts at a word boundary when no sentence end is near', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    expect(cutToTokens(text, 3, words)).toBe('alpha beta gamma');
  });
});

describe('cutToRelevantRun', () => {
  // Counts the times "vacuum" occurs: the question's one informative word, for these tests.
  const relevance = (text: string) => (text.match(/vacuum/g) ?? []).length;
  const filler = (label: string) => Array.from({ length: 30 }, (_, i) => `${label} line ${i}.`).join(' ');

  it('keeps the block that holds what was asked when the beginning does not', () => {
    const text = `${filler('Intro')}\n\n${filler('Middle')}\n\nYou need vacuum space equal to the table. A vacuum needs it twice.\n\n${filler('End')}`;
    const run = cutToRelevantRun(text, 40, words, relevance);
    expect(run.startsWith('You need vacuum space')).toBe(true);
    expect(text.includes(run)).toBe(true); // one unbroken run of the passage's own text
    expect(words(run)).toBeLessThanOrEqual(40);
  });

  it('keeps the beginning when no later block holds more', () => {
    const text = `The vacuum opens here. ${filler('Intro')}\n\nA vacuum again.\n\n${filler('End')}`;
    expect(cutToRelevantRun(text, 40, words, relevance)).toBe(cutToTokens(text, 40, words));
  });

  it('starts a run only where a block begins: never mid-paragraph, mid-list or inside code', () => {
    const text = [
      filler('Intro'),
      '',
      'The options are:',
      '- one',
      '- vacuum two vacuum',
      '',
      '```',
      'vacuum vacuum vacuum',
      '```',
      '',
      `${filler('Tail')} vacuum here vacuum.`,
    ].join('\n');
    const run = cutToRelevantRun(text, 12, words, relevance);
    expect(['The options are:', '```'].some((start) => run.startsWith(start))).toBe(true);
    expect(run.startsWith('- vacuum')).toBe(false);
    expect(run.startsWith('vacuum vacuum')).toBe(false);
  });

  it('is what applyContextBudget cuts with when given a relevance, and only then', () => {
    const fact = 'You need vacuum space equal to the table.';
    const long: Passage = { n: 1, title: 'T1', url: null, heading: null, content: `${filler('Intro')}\n\n${fact}\n\n${filler('End')}` };
    const short: Passage = { n: 2, title: 'T2', url: null, heading: null, content: 'A short one.' };
    const focused = applyContextBudget([long, short], { maxTokens: 60, estimate: words, relevance });
    expect(focused.passages[0]?.content.startsWith(fact)).toBe(true);
    expect(focused.passages[0]?.truncated).toBe(true);
    const plain = applyContextBudget([long, short], { maxTokens: 60, estimate: words });
    expect(plain.passages[0]?.content.startsWith('Intro line 0.')).toBe(true);
  });
});
