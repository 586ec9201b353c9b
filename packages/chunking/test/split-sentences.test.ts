import { describe, expect, it } from 'vitest';
import { splitSentences } from '../src/index.ts';

describe('splitSentences', () => {
  it('splits at terminators followed by a capital, a digit or a quote', () => {
    expect(splitSentences('First one. Second one! Third? "Fourth," she said. 5 is a number.')).toEqual([
      'First one.',
      'Second one!',
      'Third?',
      '"Fourth," she said.',
      '5 is a number.',
    ]);
  });

  it('keeps abbreviations, initials, versions, decimals and URLs inside their sentence', () => {
    const text =
      'Use a hook, e.g. onRequest, or i.e. Fastify hooks. Upgrade to v1.2 first. Pi is 3.14 roughly. ' +
      'See https://example.com/docs/a.b.html for more. Written by J. R. Smith et al. in 2020. Dr. Who agrees.';
    expect(splitSentences(text)).toEqual([
      'Use a hook, e.g. onRequest, or i.e. Fastify hooks.',
      'Upgrade to v1.2 first.',
      'Pi is 3.14 roughly.',
      'See https://example.com/docs/a.b.html for more.',
      'Written by J. R. Smith et al. in 2020.',
      'Dr. Who agrees.',
    ]);
  });

  it('starts a sentence at code and closing brackets, and splits CJK text without spaces', () => {
    expect(splitSentences('It returns a reply (see below). `reply.send()` ends it.')).toEqual([
      'It returns a reply (see below).',
      '`reply.send()` ends it.',
    ]);
    expect(splitSentences('これはペンです。あれは本です。')).toEqual(['これはペンです。', 'あれは本です。']);
  });

  it('is linear on a long run of terminators', () => {
    const start = performance.now();
    const out = splitSentences('.'.repeat(200_000) + ' Next sentence.');
    expect(out).toHaveLength(2);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});
