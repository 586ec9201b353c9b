import { describe, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { decodeEmbeddings } from '../src/openai/decode-embeddings.ts';
import { estimateInputTokens, planBatches } from '../src/openai/plan-batches.ts';
import { backoffDelay, DEFAULT_RETRY_POLICY, retryAfterMs } from '../src/openai/retry-policy.ts';

const headers = (values: Record<string, string>) => new Headers(values);

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after seconds and HTTP dates, and ignores garbage', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after-ms': '250.5' }), now)).toBe(250.5);
    expect(retryAfterMs(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now)).toBe(7000);
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt, caps, and jitters within the upper half', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, policy, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, policy, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
});

describe('planBatches', () => {
  const limits = { maxBatchSize: 3, maxTokensPerRequest: 100, maxTokensPerInput: 40 };

  it('estimates tokens by kind of run: words, dense strings, digits, symbols, other scripts', () => {
    expect(estimateInputTokens('abcdef')).toBe(2);
    expect(estimateInputTokens('setErrorHandler')).toBe(5);
    expect(estimateInputTokens('a1b2c3d4e5f6')).toBe(Math.ceil(12 / 1.3));
    expect(estimateInputTokens('123456')).toBe(2);
    expect(estimateInputTokens('{};')).toBe(3);
    expect(estimateInputTokens('日本語')).toBe(6);
  });

  it('cuts batches by count and by token budget, in order', () => {
    const thirty = 'abc '.repeat(30).trim();
    expect(estimateInputTokens(thirty)).toBe(30);
    const byCount = planBatches([thirty, 'b', 'c', 'd', thirty, thirty], limits);
    expect(byCount.batches.map((b) => b.map((i) => i.owner))).toEqual([[0, 1, 2], [3, 4, 5]]);
    const byTokens = planBatches([thirty, thirty, thirty, thirty], { ...limits, maxBatchSize: 10 });
    expect(byTokens.batches.map((b) => b.map((i) => i.owner))).toEqual([[0, 1, 2], [3]]);
    expect(byTokens.split).toEqual([]);
  });

  it('splits an oversized input at whitespace into parts within the per-input budget', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    const plan = planBatches([words], limits);
    const parts = plan.batches.flat();
    expect(plan.split).toEqual([{ index: 0, tokens: estimateInputTokens(words), parts: parts.length }]);
    expect(parts.every((p) => p.owner === 0 && p.tokens <= 40)).toBe(true);
    expect(parts.map((p) => p.text).join(' ')).toBe(words);
  });

  it('splits text without whitespace without breaking a surrogate pair', () => {
    const plan = planBatches(['😀'.repeat(100)], { ...limits, maxTokensPerInput: 41 });
    const parts = plan.batches.flat().map((p) => p.text);
    expect(parts.join('')).toBe('😀'.repeat(100));
    for (const part of parts) expect(part.length % 2).toBe(0);
  });
});

describe('decodeEmbeddings', () => {
  const context = { model: 'm', dimensions: 2 };

  it('reads float arrays from servers that ignore encoding_format, placing them by index', () => {
    expect(decodeEmbeddings({ data: [{ index: 1, embedding: [0, 1] }, { index: 0, embedding: [1, 0] }] }, 2, context)).toEqual([[1, 0], [0, 1]]);
  });

  it('reads base64 float32 little-endian', () => {
    const b64 = Buffer.from(new Float32Array([0.5, -0.25]).buffer).toString('base64');
    expect(decodeEmbeddings({ data: [{ index: 0, embedding: b64 }] }, 1, context)).toEqual([[0.5, -0.25]]);
  });

  it('rejects missing, duplicate, zero and non-finite vectors', () => {
    const cases = [
      { data: [{ index: 0, embedding: [1, 0] }] },
      { data: [{ index: 0, embedding: [1, 0] }, { index: 0, embedding: [1, 0] }] },
      { data: [{ index: 0, embedding: [0, 0] }, { index: 1, embedding: [1, 0] }] },
      { data: [{ index: 0, embedding: [NaN, 0] }, { index: 1, embedding: [1, 0] }] },
      { data: [{ index: 0, embedding: { not: 'a vector' } }, { index: 1, embedding: [1, 0] }] },
    ];
    for (const response of cases) {
      try {
        decodeEmbeddings(response, 2, context);
        expect.unreachable();
      } catch (error) {
        expect(isAppError(error, 'EMBEDDING_RESPONSE_INVALID'), JSON.stringify(response)).toBe(true);
      }
    }
  });
});
