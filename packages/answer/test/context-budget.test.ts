import { describe, expect, it } from 'vitest';
import { applyContextBudget, cutToTokens } from '../src/context-budget.ts';
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
