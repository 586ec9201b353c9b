import { describe, expect, it } from 'vitest';
import { estimateTokens, lettersPerTokenOf } from '../src/index.ts';
import { prefixWithinTokens } from '../src/estimate-tokens.ts';

describe('estimateTokens', () => {
  it('is near real tokenizers on prose and errs high on code', () => {
    // cl100k gives 10 tokens for this sentence.
    expect(estimateTokens('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(estimateTokens("reply.send({ hello: 'world' })")).toBe(12);
    expect(estimateTokens('internationalization')).toBe(4);
    // cl100k: "123" "456" "7", and a number that starts a word pays for the space before it.
    expect(estimateTokens('1234567')).toBe(4);
    expect(estimateTokens('in 2024')).toBe(4);
    // Letters and digits are never one piece: "http" "2", "0" "x" "dead" "be" "ef".
    expect(estimateTokens('http2')).toBe(2);
    expect(estimateTokens('日本語')).toBe(4);
    expect(estimateTokens('   \n\t ')).toBe(0);
  });

  it('adds up across whitespace, so pieces can be packed without recounting', () => {
    const a = 'Routes are declared with fastify.route().';
    const b = 'Each one has a method, a URL and a handler.';
    expect(estimateTokens(`${a} ${b}`)).toBe(estimateTokens(a) + estimateTokens(b));
    expect(estimateTokens(`${a}\n\n${b}`)).toBe(estimateTokens(a) + estimateTokens(b));
  });
});

describe('lettersPerTokenOf', () => {
  it('reads English prose as English, and other languages or bare identifiers as not', () => {
    expect(lettersPerTokenOf('The reply is sent when the handler returns, and the hook runs before it.')).toBe(5);
    expect(lettersPerTokenOf('Berkas konfigurasi berisi semua pengaturan untuk mengakses basis data, termasuk nama pengguna dan kata sandi.')).toBe(2.5);
    expect(lettersPerTokenOf('fastify.register(plugin, { prefix, logLevel, logSerializers, constraints, schema, config, hooks, decorators, onRequest })')).toBe(2.5);
    // Too few words to tell: English.
    expect(lettersPerTokenOf('Plik konfiguracyjny zawiera ustawienia.')).toBe(5);
  });

  it('estimates at one rate add up across whitespace, whatever the language', () => {
    const a = 'Plik konfiguracyjny zawiera wszystkie ustawienia.';
    const b = '设置 1234 Größe';
    expect(estimateTokens(`${a} ${b}`, 2.5)).toBe(estimateTokens(a, 2.5) + estimateTokens(b, 2.5));
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
    // Inside a run of ideographs (1.25 each): three fit in 4 tokens, four do not.
    expect(prefixWithinTokens('数据库默认端口', 4)).toBe(3);
  });
});
