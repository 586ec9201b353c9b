import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { chunkDocument, textForEmbedding } from '@brain/chunking';
import { estimateInputTokens } from '../src/openai/plan-batches.ts';

/** Deterministic bytes (xorshift), so the "random" samples are the same on every run. */
function bytes(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  return out;
}

// Requests are sized by this estimate: if it fell below the real count, a request could exceed
// OpenAI's 300,000 tokens, or an input its 8,191, and the whole batch would fail with a 400.
describe('estimateInputTokens against cl100k', () => {
  const encoder = getEncoding('cl100k_base');

  it('is never below the real count, even for text that tokenizes badly', () => {
    const samples: Record<string, string> = {
      // Kept short: the reference tokenizer is quadratic on long runs without spaces.
      base64: Array.from({ length: 20 }, (_, i) => bytes(150, i + 1).toString('base64')).join('\n'),
      hex: Array.from({ length: 20 }, (_, i) => bytes(100, i + 30).toString('hex')).join(' '),
      digits: Array.from({ length: 40 }, (_, i) => Array.from(bytes(50, i + 60), (b) => String(b % 10)).join('')).join(' '),
      uuids: Array.from({ length: 100 }, (_, i) => bytes(16, i + 100).toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')).join(' '),
      punctuation: Array.from({ length: 50 }, () => '!@#$%^&*()[]{};:,.<>/?').join(' '),
      emoji: Array.from({ length: 100 }, () => '😀🎉🚀😀🎉').join(' '),
      cjk: '日本語のテキストです。'.repeat(100),
      cyrillic: 'Привет, как дела? Это тест. '.repeat(100),
      accents: 'Ça coûte très cher, élève naïf à Zürich. '.repeat(100),
      indentation: ('x' + ' '.repeat(37) + '\n').repeat(200),
    };
    for (const [name, text] of Object.entries(samples)) {
      expect(estimateInputTokens(text), name).toBeGreaterThanOrEqual(encoder.encode(text).length);
    }
  });

  it('is above the real count for every passage of real documentation (about 1.7× at the median)', () => {
    const docs = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');
    const ratios: number[] = [];
    for (const dir of ['Reference', 'Guides']) {
      for (const file of readdirSync(path.join(docs, dir))) {
        for (const chunk of chunkDocument({ title: file, text: readFileSync(path.join(docs, dir, file), 'utf8') })) {
          const text = textForEmbedding(chunk);
          ratios.push(estimateInputTokens(text) / encoder.encode(text).length);
        }
      }
    }
    ratios.sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)] as number;
    console.info(`estimateInputTokens / cl100k over ${ratios.length} passages: min ${ratios[0]?.toFixed(2)}, median ${median.toFixed(2)}, max ${ratios.at(-1)?.toFixed(2)}`);
    expect(ratios[0]).toBeGreaterThanOrEqual(1);
    expect(median).toBeLessThan(2.5);
  });
});
