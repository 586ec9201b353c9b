import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { isAppError, type AppError } from '@brain/errors';
import { startFakeOpenAI } from '@brain/testkit';
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from '../src/index.ts';
import { estimateInputTokens } from '../src/openai/plan-batches.ts';

const fake = await startFakeOpenAI({ apiKey: 'sk-test' });
afterAll(() => fake.close());

beforeEach(() => {
  fake.embeddingCalls.length = 0;
  fake.setLatency(0);
});

/** An embedder on the fake whose waits are recorded instead of slept, with jitter fixed at its midpoint. */
function embedderWith(options: Partial<OpenAIEmbedderOptions> = {}) {
  const waits: number[] = [];
  const warnings: Record<string, unknown>[] = [];
  const embedder = createOpenAIEmbedder({
    apiKey: 'sk-test',
    baseUrl: fake.url,
    model: 'text-embedding-3-small',
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    logger: { warn: (details) => warnings.push(details) },
    ...options,
  });
  return { embedder, waits, warnings };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const texts = (n: number, prefix = 'passage') => Array.from({ length: n }, (_, i) => `${prefix} number ${i}`);

describe('createOpenAIEmbedder against a fake OpenAI', () => {
  it('returns one 1536-d vector per input, in order, exactly as the provider computed them', async () => {
    const { embedder } = embedderWith();
    const inputs = ['first passage', 'second passage', 'third passage'];
    const vectors = await embedder.embed(inputs);
    expect(embedder.model).toBe('text-embedding-3-small');
    expect(embedder.dimensions).toBe(1536);
    expect(vectors).toEqual(inputs.map((text) => fake.vectorFor(text, 1536)));
    const [call] = fake.embeddingCalls;
    expect(call).toMatchObject({ model: 'text-embedding-3-small', inputs, dimensions: 1536, encodingFormat: 'base64', status: 200 });
    expect(fake.server.requests.at(-1)?.headers.authorization).toBe('Bearer sk-test');
  });

  it('splits 5,000 inputs into requests of at most 2048 and keeps the order', async () => {
    const { embedder } = embedderWith({ concurrency: 3 });
    const inputs = texts(5_000);
    const vectors = await embedder.embed(inputs);
    expect(fake.embeddingCalls.length).toBeGreaterThanOrEqual(3);
    for (const call of fake.embeddingCalls) expect(call.inputs.length).toBeLessThanOrEqual(2048);
    expect(fake.embeddingCalls.flatMap((c) => c.inputs).sort()).toEqual([...inputs].sort());
    expect(vectors).toHaveLength(5_000);
    for (const i of [0, 2047, 2048, 4095, 4096, 4999]) expect(vectors[i]).toEqual(fake.vectorFor(inputs[i] as string, 1536));
  });

  it('splits a batch by its token budget before the input count limit', async () => {
    const { embedder } = embedderWith();
    // 6,000 estimated tokens each: 60 of them are 360,000, over the 250,000 budget, and over the
    // real API's 300,000 (the fake counts characters / 4: 5,400 each, 324,000 in all).
    const inputs = Array.from({ length: 60 }, () => 'lorem ipsum dolor '.repeat(1_200).trim());
    expect(estimateInputTokens(inputs[0] as string)).toBe(6_000);
    await embedder.embed(inputs);
    expect(fake.embeddingCalls.map((c) => c.inputs.length).sort((a, b) => b - a)).toEqual([41, 19]);
    for (const call of fake.embeddingCalls) {
      expect(call.status).toBe(200);
      expect(call.inputs.reduce((n, s) => n + estimateInputTokens(s), 0)).toBeLessThanOrEqual(250_000);
    }
  });

  it('embeds an input over the per-input limit in parts, averaged and normalised, with a warning', async () => {
    const { embedder, warnings } = embedderWith();
    const long = Array.from({ length: 10_000 }, (_, i) => `word${i}`).join(' ');
    const [vector, short] = await embedder.embed([long, 'short one']);
    const sent = fake.embeddingCalls.flatMap((c) => c.inputs);
    expect(sent.length).toBeGreaterThan(2);
    expect(sent.at(-1)).toBe('short one');
    expect(sent.slice(0, -1).join(' ')).toBe(long);
    expect(Math.hypot(...(vector as number[]))).toBeCloseTo(1, 6);
    expect(short).toEqual(fake.vectorFor('short one', 1536));
    expect(warnings).toContainEqual(expect.objectContaining({ index: 0, parts: sent.length - 1 }));
  });

  it('retries a 429 after the retry-after the server asks for', async () => {
    const { embedder, waits } = embedderWith();
    fake.failNext('embeddings', 2, { status: 429, headers: { 'retry-after': '2' } });
    const vectors = await embedder.embed(['rate limited']);
    expect(vectors[0]).toEqual(fake.vectorFor('rate limited', 1536));
    expect(fake.embeddingCalls.map((c) => c.status)).toEqual([429, 429, 200]);
    expect(waits).toEqual([2000, 2000]);
  });

  it('prefers retry-after-ms, and reads retry-after as an HTTP date', async () => {
    const { embedder, waits } = embedderWith();
    fake.failNext('embeddings', 1, { status: 429, headers: { 'retry-after-ms': '150', 'retry-after': '30' } });
    fake.failNext('embeddings', 1, { status: 429, headers: { 'retry-after': new Date(Date.now() + 5_000).toUTCString() } });
    await embedder.embed(['x']);
    expect(waits[0]).toBe(150);
    expect(waits[1]).toBeGreaterThan(3_000);
    expect(waits[1]).toBeLessThanOrEqual(5_000);
  });

  it('retries 500 and 503 with exponential backoff and jitter', async () => {
    const { embedder, waits } = embedderWith();
    fake.failNext('embeddings', 1, { status: 500 });
    fake.failNext('embeddings', 1, { status: 503 });
    fake.failNext('embeddings', 1, { status: 502 });
    await embedder.embed(['flaky']);
    expect(fake.embeddingCalls.map((c) => c.status)).toEqual([500, 503, 502, 200]);
    // Equal jitter at random() = 0.5: 3/4 of 500, 1000, 2000 ms.
    expect(waits).toEqual([375, 750, 1500]);
  });

  it('does not retry a 400: one request, EMBEDDING_REQUEST_INVALID, not retryable', async () => {
    const { embedder, waits } = embedderWith();
    fake.failNext('embeddings', 1, { status: 400 });
    const error = await failure(embedder.embed(['bad']));
    expect(error.code).toBe('EMBEDDING_REQUEST_INVALID');
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ status: 400, attempts: 1 });
    expect(fake.embeddingCalls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry a 401: EMBEDDING_AUTH_FAILED, with a next step about OPENAI_API_KEY', async () => {
    const { embedder } = embedderWith({ apiKey: 'sk-wrong' });
    const error = await failure(embedder.embed(['x']));
    expect(error.code).toBe('EMBEDDING_AUTH_FAILED');
    expect(error.retryable).toBe(false);
    expect(error.nextStep).toContain('OPENAI_API_KEY');
    expect(error.message).not.toContain('sk-wrong');
    expect(fake.embeddingCalls).toHaveLength(1);
  });

  it('does not retry a 403 or a 404 either', async () => {
    const { embedder } = embedderWith();
    fake.failNext('embeddings', 1, { status: 403 });
    expect((await failure(embedder.embed(['x']))).code).toBe('EMBEDDING_AUTH_FAILED');
    fake.failNext('embeddings', 1, { status: 404 });
    const missing = await failure(embedder.embed(['x']));
    expect(missing.code).toBe('EMBEDDING_MODEL_NOT_FOUND');
    expect(missing.nextStep).toContain('EMBEDDING_MODEL');
    expect(fake.embeddingCalls).toHaveLength(2);
  });

  it('does not retry a 429 that says the quota is exhausted', async () => {
    const { embedder, waits } = embedderWith();
    fake.failNext('embeddings', 1, { status: 429, code: 'insufficient_quota' });
    const error = await failure(embedder.embed(['x']));
    expect(error.code).toBe('EMBEDDING_QUOTA_EXCEEDED');
    expect(error.retryable).toBe(false);
    expect(waits).toEqual([]);
  });

  it('gives up after maxRetries with a retryable error the job queue can act on', async () => {
    const { embedder, waits } = embedderWith({ maxRetries: 2 });
    fake.failNext('embeddings', 3, { status: 429, headers: { 'retry-after': '1' } });
    const limited = await failure(embedder.embed(['x']));
    expect(limited.code).toBe('EMBEDDING_RATE_LIMITED');
    expect(limited.retryable).toBe(true);
    expect(limited.details).toMatchObject({ attempts: 3, status: 429 });
    expect(waits).toEqual([1000, 1000]);

    fake.failNext('embeddings', 3, { status: 503 });
    const down = await failure(embedder.embed(['x']));
    expect(down.code).toBe('EMBEDDING_PROVIDER_UNAVAILABLE');
    expect(down.retryable).toBe(true);
    expect(fake.embeddingCalls).toHaveLength(6);
  });

  it('stops at once, retryable, when retry-after is longer than it is willing to wait', async () => {
    const { embedder, waits } = embedderWith({ retryMaxDelayMs: 60_000 });
    fake.failNext('embeddings', 1, { status: 429, headers: { 'retry-after': '3600' } });
    const error = await failure(embedder.embed(['x']));
    expect(error.code).toBe('EMBEDDING_RATE_LIMITED');
    expect(error.retryable).toBe(true);
    expect(error.details).toMatchObject({ retryAfterMs: 3_600_000 });
    expect(waits).toEqual([]);
    expect(fake.embeddingCalls).toHaveLength(1);
  });

  it('retries network errors, then reports the provider unavailable', async () => {
    const { embedder, waits } = embedderWith({ baseUrl: 'http://127.0.0.1:9/v1', maxRetries: 2 });
    const error = await failure(embedder.embed(['x']));
    expect(error.code).toBe('EMBEDDING_PROVIDER_UNAVAILABLE');
    expect(error.retryable).toBe(true);
    expect(waits).toHaveLength(2);
  });

  it('rejects vectors of another dimension, naming the model and the size received', async () => {
    const small = await startFakeOpenAI({ modelDimensions: { 'nomic-embed-text': 768 } });
    try {
      const { embedder } = embedderWith({ baseUrl: small.url, model: 'nomic-embed-text' });
      const error = await failure(embedder.embed(['x']));
      expect(error.code).toBe('EMBEDDING_DIMENSION_MISMATCH');
      expect(error.message).toContain('nomic-embed-text');
      expect(error.message).toContain('768');
      expect(error.retryable).toBe(false);
      // `dimensions` is only sent to models that accept it.
      expect(small.embeddingCalls[0]?.dimensions).toBeUndefined();
    } finally {
      await small.close();
    }
  });

  it('accepts a 1536-d model that takes no dimensions parameter (ada-002)', async () => {
    const { embedder } = embedderWith({ model: 'text-embedding-ada-002' });
    const [vector] = await embedder.embed(['x']);
    expect(vector).toHaveLength(1536);
    expect(fake.embeddingCalls[0]?.dimensions).toBeUndefined();
  });

  it('stops in-flight requests and pending waits when the signal aborts', async () => {
    fake.setLatency(2_000);
    const { embedder } = embedderWith();
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('shutting down')), 50);
    const error = await failure(embedder.embed(['slow'], { signal: controller.signal }));
    expect(error.code).toBe('EMBEDDING_ABORTED');
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_500);

    fake.setLatency(0);
    const sleeping = createOpenAIEmbedder({ apiKey: 'sk-test', baseUrl: fake.url, model: 'text-embedding-3-small' });
    fake.failNext('embeddings', 1, { status: 429, headers: { 'retry-after': '30' } });
    const later = new AbortController();
    setTimeout(() => later.abort(), 100);
    const waitStarted = Date.now();
    expect((await failure(sleeping.embed(['x'], { signal: later.signal }))).code).toBe('EMBEDDING_ABORTED');
    expect(Date.now() - waitStarted).toBeLessThan(5_000);
  });

  it('keeps at most `concurrency` requests in flight, and stops starting batches after a final failure', async () => {
    let inFlight = 0;
    let peak = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    fake.setLatency(30);
    const { embedder } = embedderWith({ maxBatchSize: 10, concurrency: 3, fetch: countingFetch });
    await embedder.embed(texts(100));
    expect(fake.embeddingCalls).toHaveLength(10);
    expect(peak).toBe(3);

    fake.embeddingCalls.length = 0;
    fake.failNext('embeddings', 1, { status: 400 });
    const error = await failure(embedder.embed(texts(100)));
    expect(error.code).toBe('EMBEDDING_REQUEST_INVALID');
    expect(fake.embeddingCalls.length).toBeLessThanOrEqual(3);
  });

  it('refuses empty text before calling the provider, and sends nothing for no input', async () => {
    const { embedder } = embedderWith();
    expect(await embedder.embed([])).toEqual([]);
    expect((await failure(embedder.embed(['ok', '  ']))).code).toBe('EMBEDDING_REQUEST_INVALID');
    expect(fake.embeddingCalls).toHaveLength(0);
  });

  it('refuses a dimension other than 1536 when created', () => {
    expect(() => createOpenAIEmbedder({ model: 'text-embedding-3-large', dimensions: 3072 })).toThrow(/1536/);
  });
});
