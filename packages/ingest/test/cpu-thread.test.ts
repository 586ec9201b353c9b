import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkConversation, chunkDocument } from '@brain/chunking';
import { createLocalEmbedder, LOCAL_EMBEDDING_MODEL } from '@brain/embeddings';
import { createIngestCpuThreads } from '../src/index.ts';

// Real documentation pages (fastify's reference ships in node_modules) as the corpus: headings,
// code blocks, tables and long paragraphs, so every chunking path is exercised.
const reference = fileURLToPath(new URL('../../../node_modules/fastify/docs/Reference', import.meta.url));
const documents = fs
  .readdirSync(reference)
  .filter((name) => name.endsWith('.md'))
  .sort()
  .slice(0, 12)
  .map((name) => ({ title: name.replace(/\.md$/, ''), text: fs.readFileSync(path.join(reference, name), 'utf8') }));

const conversation = {
  title: 'Deploy freeze question',
  messages: Array.from({ length: 40 }, (_, i) => ({
    id: String(1_300_000_000_000_000_000n + BigInt(i)),
    url: `https://discord.com/channels/1/2/${i}`,
    author: i % 3 === 0 ? 'ada' : 'grace',
    at: new Date(Date.UTC(2026, 10, 1, 12, i)).toISOString(),
    content: i % 7 === 0 ? `${documents[0]?.text.slice(i * 50, i * 50 + 1500) ?? ''}` : `Message ${i}: we deploy on Tuesdays; the freeze starts on the 20th. @everyone see #ops.`,
    replyTo: i > 0 && i % 5 === 0 ? String(1_300_000_000_000_000_000n + BigInt(i - 1)) : null,
    attachments: [],
  })),
};

describe('ingestion CPU work on a worker thread', () => {
  const threads = createIngestCpuThreads();
  afterAll(() => threads.close());

  it('chunks documents exactly as the in-thread chunker does', async () => {
    expect(documents.length).toBeGreaterThanOrEqual(10);
    for (const document of documents) {
      const threaded = await threads.chunk(document);
      expect(threaded.length).toBeGreaterThan(0);
      expect(threaded).toEqual(chunkDocument(document));
    }
    expect(threads.counters.started).toBe(1);
  });

  it('chunks a conversation exactly as the in-thread path does, message spans included', async () => {
    const inThread = chunkConversation(conversation).map(({ spans, ...chunk }) => ({ ...chunk, messageSpans: spans }));
    const threaded = await threads.chunkConversation(conversation);
    expect(threaded.length).toBeGreaterThan(1);
    expect(threaded).toEqual(inThread);
  });

  it('embeds every passage to the same vector as the local embedder in-thread, bit for bit', async () => {
    const texts = documents.flatMap((d) => chunkDocument(d).map((c) => `${c.heading}\n${c.content}`)).slice(0, 300);
    texts.push('', '???', 'how do I?');
    const threaded = await threads.embedder.embed(texts);
    const inThread = await createLocalEmbedder().embed(texts);
    expect(threads.embedder.model).toBe(LOCAL_EMBEDDING_MODEL);
    expect(threaded).toHaveLength(texts.length);
    for (let i = 0; i < texts.length; i++) expect(threaded[i]).toEqual(inThread[i]);
  });

  it('embeds with the model it is given: a database kept on local-hash-v1 is not indexed with the default', async () => {
    const pool = createIngestCpuThreads({ model: 'local-hash-v1' });
    try {
      const texts = ['How do I configure the logger?', 'Routes are declared with fastify.route().'];
      expect(pool.embedder.model).toBe('local-hash-v1');
      expect(await pool.embedder.embed(texts)).toEqual(await createLocalEmbedder('local-hash-v1').embed(texts));
      expect(await pool.embedder.embed(texts)).not.toEqual(await createLocalEmbedder('local-hash-v2').embed(texts));
    } finally {
      await pool.close();
    }
  });

  it('spreads work over several threads and still answers each call with its own result', async () => {
    const pool = createIngestCpuThreads({ size: 2 });
    try {
      const results = await Promise.all(documents.slice(0, 6).map((d) => pool.chunk(d)));
      results.forEach((chunks, i) => expect(chunks).toEqual(chunkDocument(documents[i] as (typeof documents)[number])));
      expect(pool.counters.started).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('fails pending and later work with a retryable INGEST_THREAD_DIED once closed', async () => {
    const pool = createIngestCpuThreads();
    const big = Array.from({ length: 2_000 }, (_, i) => `${documents[i % documents.length]?.text.slice(0, 4_000)}`);
    const pending = pool.embedder.embed(big);
    await pool.close();
    await expect(pending).rejects.toMatchObject({ code: 'INGEST_THREAD_DIED', retryable: true });
    await expect(pool.chunk(documents[0] as (typeof documents)[number])).rejects.toMatchObject({ code: 'INGEST_THREAD_DIED' });
  });
});
