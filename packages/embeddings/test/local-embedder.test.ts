import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEmbedder, createLocalEmbedder, LOCAL_EMBEDDING_MODEL, localModelOf, type Embedder } from '../src/index.ts';
import { embedLocally } from '../src/local/local-embedder.ts';
import { tokenize } from '../src/local/tokenize.ts';

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
};
const norm = (a: ArrayLike<number>) => Math.sqrt(cosine(a, a));
const sim = (a: string, b: string) => cosine(embedLocally(a), embedLocally(b));

describe('createLocalEmbedder', () => {
  const embedder = createLocalEmbedder();

  it('is local-hash-v2 by default, 1536-dimensional, unit-norm and deterministic', async () => {
    expect(embedder.model).toBe(LOCAL_EMBEDDING_MODEL);
    expect(embedder.model).toBe('local-hash-v2');
    expect(embedder.dimensions).toBe(1536);
    const texts = ['How do I configure the logger?', 'Routes are declared with fastify.route().', 'ünïcödé テキスト 😀'];
    const [a, b] = [await embedder.embed(texts), await embedder.embed(texts)];
    expect(b).toEqual(a);
    for (const v of a) {
      expect(v).toHaveLength(1536);
      expect(norm(v)).toBeCloseTo(1, 10);
      expect(v.every(Number.isFinite)).toBe(true);
    }
    // Different texts, different vectors.
    expect(cosine(a[0] as number[], a[1] as number[])).toBeLessThan(0.5);
  });

  it('gives the same vector whatever was embedded before (the feature table is reused and grows)', async () => {
    const text = 'Hooks run in order: onRequest, preParsing, preValidation, preHandler.';
    const before = embedLocally(text);
    const huge = Array.from({ length: 20_000 }, (_, i) => `token${i}x${(i * 7919) % 10007}`).join(' ');
    expect(norm(embedLocally(huge))).toBeCloseTo(1, 10);
    expect(embedLocally(text)).toEqual(before);
    expect(await embedder.embed([text])).toEqual([Array.from(before)]);
  });

  it('never returns a zero vector: empty, stopword-only and symbol-only text get unit vectors', async () => {
    const vectors = await embedder.embed(['', '   ', 'how do I?', '!!! ??? ---']);
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 10);
    // Stopword-only text still reflects its words; the empty vector is one fixed direction.
    expect(cosine(vectors[2] as number[], vectors[0] as number[])).toBeLessThan(0.5);
    expect(cosine(vectors[0] as number[], vectors[1] as number[])).toBeCloseTo(1, 10);
  });

  it('matches morphological variants and paraphrases that share stems', () => {
    const query = 'configure logging';
    expect(sim(query, 'How to configure the logger')).toBeGreaterThan(sim(query, 'database migrations run in order') + 0.2);
    expect(sim('validating request bodies', 'Validation of the request body')).toBeGreaterThan(0.5);
  });

  it('matches listed synonyms that share no stem', () => {
    const query = 'How do I shut down the server?';
    const related = 'Call close() to stop the instance gracefully.';
    const unrelated = 'Decorators add properties to the request object.';
    expect(sim(query, related)).toBeGreaterThan(0.15);
    expect(sim(query, related)).toBeGreaterThan(sim(query, unrelated) + 0.1);
  });

  it('matches identifiers whole and by their parts', () => {
    const passage = 'Fastify throws FST_ERR_CTP_INVALID_MEDIA_TYPE when the content type is not supported. Use reply.send() and setErrorHandler.';
    const other = 'The server listens on a port and logs every request with pino.';
    for (const query of ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'invalid media type error', 'reply.send', 'set error handler', 'setErrorHandler']) {
      expect(sim(query, passage), query).toBeGreaterThan(sim(query, other) + 0.1);
    }
  });

  it('partly tolerates a spelling variant or typo through character n-grams', () => {
    expect(sim('serialisation', 'serialization')).toBeGreaterThan(0.15);
    const query = 'a custom serialiser for replies';
    expect(sim(query, 'Set a custom serializer for the reply')).toBeGreaterThan(sim(query, 'Set a custom authenticator for the reply'));
  });

  it('cannot match meaning without shared words or listed synonyms (documented limit)', () => {
    expect(sim('How do I make it quicker?', 'Tune throughput with a larger pool.')).toBeLessThan(0.1);
    expect(sim('ロギングを設定する方法', 'How do I configure logging?')).toBeLessThan(0.1);
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(embedder.embed(['text'], { signal: controller.signal })).rejects.toThrow('stop');
  });

  it('embeds thousands of passages per second (reported, asserted generously)', async () => {
    const passage = (i: number) =>
      `Reply › Methods › .send(data)\nIf you are sending a stream (${i}) and you have not set a Content-Type header, send will set it to application/octet-stream. ` +
      'Streams are considered to be pre-serialized, so they will be sent unmodified without response validation. '.repeat(6);
    const texts = Array.from({ length: 1_000 }, (_, i) => passage(i));
    await embedder.embed(texts.slice(0, 50));
    const start = performance.now();
    await embedder.embed(texts);
    const perSecond = 1_000 / ((performance.now() - start) / 1000);
    console.info(`${embedder.model}: ${perSecond.toFixed(0)} passages/s (~${Math.round(texts[0]?.length ?? 0)} chars each)`);
    expect(perSecond).toBeGreaterThan(100);
  });
});

describe('localModelOf', () => {
  // Ingestion moves the local embedder to a thread by this test of identity: a wrapper around it
  // (a test's counting embedder, say) must keep running as given, not be swapped for the thread.
  it("names the model of createLocalEmbedder's embedders (and createEmbedder's local ones) and of nothing else", () => {
    const local = createLocalEmbedder();
    expect(localModelOf(local)).toBe(LOCAL_EMBEDDING_MODEL);
    expect(localModelOf(createEmbedder({ model: 'local-hash-v2' } as never))).toBe('local-hash-v2');
    const wrapper: Embedder = { model: local.model, dimensions: local.dimensions, embed: (texts, options) => local.embed(texts, options) };
    expect(localModelOf(wrapper)).toBeUndefined();
    expect(localModelOf({ ...local })).toBeUndefined();
  });
});

describe('tokenize', () => {
  it('keeps identifiers whole and splits them into words', () => {
    expect(tokenize('Call reply.send() or setErrorHandler; see FST_ERR_CTP_INVALID_MEDIA_TYPE and HTTPServer, http2Server.')).toEqual({
      words: ['call', 'reply', 'send', 'or', 'set', 'error', 'handler', 'see', 'fst', 'err', 'ctp', 'invalid', 'media', 'type', 'and', 'http', 'server', 'http', '2', 'server'],
      identifiers: ['reply.send', 'seterrorhandler', 'fst_err_ctp_invalid_media_type', 'httpserver', 'http2server'],
    });
  });

  it('normalises unicode compatibility forms and drops possessives', () => {
    expect(tokenize('ﬁle server’s Ｆａｓｔｉｆｙ').words).toEqual(['file', 'server', 'fastify']);
  });
});

describe('local-hash-v1 stays the model it was', () => {
  it('gives, with the stemmer package, bit for bit the vectors of the hand-written Porter stemmer it replaced', () => {
    // sha256 of these vectors as computed before the change (the hand-written porter-stemmer.ts).
    // Stored passages keep their vectors, so local-hash-v1 must not drift under its own name.
    const texts = [
      'How do I configure the logger?',
      'Reply › Methods › .send(data)\nIf you are sending a stream and you have not set a Content-Type header, send will set it to application/octet-stream.',
      'FST_ERR_CTP_INVALID_MEDIA_TYPE setErrorHandler http2Server 404',
      'ünïcödé テキスト 😀',
      '',
      'how do I?',
    ];
    const hash = createHash('sha256');
    for (const text of texts) hash.update(Buffer.from(embedLocally(text, 'local-hash-v1').buffer));
    expect(hash.digest('hex')).toBe('585f0dfe72bcd2076f9413d0012097b37914d5c8ec5676bf85432ffaa601f7c4');
  });
});

describe('local-hash-v2', () => {
  const v2 = createLocalEmbedder('local-hash-v2');
  const simV2 = (a: string, b: string) => cosine(embedLocally(a, 'local-hash-v2'), embedLocally(b, 'local-hash-v2'));

  it('is its own model: unit-norm, deterministic, and not v1 in another name', async () => {
    expect(v2.model).toBe('local-hash-v2');
    expect(v2.dimensions).toBe(1536);
    const texts = ['How do I run two programs at once?', '', '!!! ???', 'ünïcödé テキスト 😀'];
    const [a, b] = [await v2.embed(texts), await v2.embed(texts)];
    expect(b).toEqual(a);
    for (const v of a) expect(norm(v)).toBeCloseTo(1, 10);
    expect(cosine(embedLocally(texts[0] as string, 'local-hash-v2'), embedLocally(texts[0] as string, 'local-hash-v1'))).toBeLessThan(0.95);
  });

  it('lets the telling word of a question outweigh its everyday ones', () => {
    // Each passage shares one word with the question: v1 scores them nearly alike (0.37 and 0.34),
    // v2 puts the one that shares the rare word clearly ahead (0.43 and 0.36).
    const query = 'every permutation of my program';
    const telling = 'itertools.permutations returns successive permutations of the elements.';
    const everyday = 'Run the program from the command line.';
    const simV1 = (a: string, b: string) => cosine(embedLocally(a, 'local-hash-v1'), embedLocally(b, 'local-hash-v1'));
    expect(simV1(query, telling) - simV1(query, everyday)).toBeLessThan(0.05);
    expect(simV2(query, telling) - simV2(query, everyday)).toBeGreaterThan(0.05);
  });

  it('weighs a word by its stem, so every form of it counts alike', () => {
    // Looked up per form, "leave" (0.34) and "leaves" (0.72) weighed apart: 0.850 against 0.628 here.
    const [leave, leaves] = [simV2('train leave', 'train'), simV2('train leaves', 'train')];
    expect(Math.abs(leave - leaves)).toBeLessThan(0.01);
    expect(Math.abs(simV2('leave permutation', 'permutation') - simV2('leaves permutation', 'permutation'))).toBeLessThan(0.01);
  });

  it('still weighs identifiers and words no list holds fully', () => {
    const query = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
    expect(simV2(query, 'Fastify throws FST_ERR_CTP_INVALID_MEDIA_TYPE for this.')).toBeGreaterThan(0.3);
  });
});
