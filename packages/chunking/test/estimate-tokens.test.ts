import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../src/index.ts';
import { prefixWithinTokens } from '../src/estimate-tokens.ts';

describe('estimateTokens', () => {
  it('is near real tokenizers on prose and errs high on code', () => {
    // cl100k gives 10 tokens for this sentence.
    expect(estimateTokens('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(estimateTokens("reply.send({ hello: 'world' })")).toBe(12);
    expect(estimateTokens('internationalization')).toBe(4);
    expect(estimateTokens('1234567')).toBe(3);
    expect(estimateTokens('日本語')).toBe(3);
    expect(estimateTokens('   \n\t ')).toBe(0);
  });

  it('adds up across whitespace, so pieces can be packed without recounting', () => {
    const a = 'Routes are declared with fastify.route().';
    const b = 'Each one has a method, a URL and a handler.';
    expect(estimateTokens(`${a} ${b}`)).toBe(estimateTokens(a) + estimateTokens(b));
    expect(estimateTokens(`${a}\n\n${b}`)).toBe(estimateTokens(a) + estimateTokens(b));
  });
});

describe('prefixWithinTokens', () => {
  it('cuts after whitespace when it can', () => {
    const text = 'alpha beta gamma delta';
    const end = prefixWithinTokens(text, 2);
    expect(text.slice(0, end)).toBe('alpha beta ');
  });

  it('cuts inside a run only when one run is over the budget, and never splits a surrogate pair', () => {
    expect(prefixWithinTokens('x'.repeat(100), 3)).toBe(15);
    const emoji = '😀'.repeat(10);
    const end = prefixWithinTokens(emoji, 3);
    expect(end % 2).toBe(0);
    expect(end).toBeGreaterThan(0);
  });
});
