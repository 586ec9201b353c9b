import { describe, expect, it } from 'vitest';
import { termWeights, type TermStats } from '../src/text/term-weights.ts';

const stats = (documents: number, counts: Record<string, number>): TermStats => ({ documents, frequencies: new Map(Object.entries(counts)), cap: Math.ceil(documents / 2) });
const weigh = (s: TermStats) => termWeights(new Set(s.frequencies.keys()), [], [], s);

describe('generic words', () => {
  it('are those in at least 4 % of the passages when the question has a rarer word', () => {
    const w = weigh(stats(258, { depthlimit: 2, default: 62, level: 103, pino: 129 }));
    expect(w.generic('depthlimit')).toBe(false);
    expect(['default', 'level', 'pino'].map((t) => w.generic(t))).toEqual([true, true, true]);
  });

  it('leave the least common words of a question whose every word is generic telling', () => {
    // "What is pino's default log level?" over pino's own docs: every word is in over 4 % of them.
    const w = weigh(stats(258, { pino: 129, default: 62, log: 129, level: 103 }));
    expect(w.generic('default')).toBe(false);
    expect(w.generic('level')).toBe(false);
    expect(w.generic('log')).toBe(true);
    expect(w.generic('pino')).toBe(true);
  });

  it('stay generic when even the rarest is in half of the passages', () => {
    const w = weigh(stats(40, { retri: 40, backoff: 20, set: 40 }));
    expect(['retri', 'backoff', 'set'].map((t) => w.generic(t))).toEqual([true, true, true]);
  });
});
