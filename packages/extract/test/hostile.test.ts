import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractor, type Extractor, type ExtractInput } from '../src/index.ts';
import { failure, html } from './helpers/extractor.ts';
import { bombPdf, textPdf } from '@brain/testkit';

/**
 * Hostile documents against the real sandbox. Each must fail its own call with its reason code
 * while this process — the stand-in for the ingestion worker — stays up, keeps extracting, and
 * keeps its memory: the parsing, and the blow-up, happen in a killable child process.
 */
const MB = 1024 * 1024;
let extractor: Extractor;
let bomb: Buffer;
let rssAtStart: number;

const normalPdf: ExtractInput = { bytes: textPdf({ title: 'Normal', pages: [['An ordinary page of text.']] }), mimeType: 'application/pdf' };
const normalHtml: ExtractInput = { bytes: html('<html><head><title>Normal</title></head><body><h2>Fine</h2><p>An ordinary page.</p></body></html>'), mimeType: 'text/html' };
const nested = (depth: number) => html(`<html><body>${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}</body></html>`);

async function stillWorks() {
  const [pdf, page] = await Promise.all([extractor.extract(normalPdf), extractor.extract(normalHtml)]);
  expect(pdf.text).toBe('An ordinary page of text.');
  expect(page.text).toBe('## Fine\n\nAn ordinary page.');
}

beforeAll(async () => {
  bomb = await bombPdf(400 * MB);
  extractor = createExtractor({ size: 2 });
  await extractor.warm();
  rssAtStart = process.memoryUsage().rss;
});
afterAll(() => extractor.close());

describe('a PDF decompression bomb (about 1 KB that inflates to 400 MB)', () => {
  it('is refused by the stream guard before pdf.js sees it: EXTRACT_TOO_LARGE', async () => {
    expect(bomb.length).toBeLessThan(4096);
    const rss = process.memoryUsage().rss;
    const error = await failure(extractor, { bytes: bomb, mimeType: 'application/pdf' });
    expect(error).toMatchObject({ code: 'EXTRACT_TOO_LARGE', retryable: false, details: { limitBytes: 256 * MB } });
    expect(error.userMessage).toMatch(/expands to more than 256 MB/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(50 * MB);
    await stillWorks();
  });

  it('with the guard off, the sandbox memory watchdog kills it: EXTRACT_MEMORY_LIMIT', async () => {
    const killed = extractor.counters.killed;
    const rss = process.memoryUsage().rss;
    const error = await failure(extractor, { bytes: bomb, mimeType: 'application/pdf' }, { maxPdfInflatedBytes: Infinity, maxRssMb: 220, timeoutMs: 120_000 });
    expect(error).toMatchObject({ code: 'EXTRACT_MEMORY_LIMIT', retryable: false });
    expect(Number(error.details?.observedMb)).toBeGreaterThanOrEqual(220);
    expect(extractor.counters.killed).toBe(killed + 1);
    expect(process.memoryUsage().rss - rss).toBeLessThan(50 * MB);
    await stillWorks();
  });

  it('with the guard off, its time limit kills it too: EXTRACT_TIMEOUT', async () => {
    const error = await failure(extractor, { bytes: bomb, mimeType: 'application/pdf' }, { maxPdfInflatedBytes: Infinity, timeoutMs: 1500 });
    expect(error).toMatchObject({ code: 'EXTRACT_TIMEOUT', retryable: false, details: { timeoutMs: 1500 } });
    await stillWorks();
  });
});

describe('HTML with 100,000 nested elements', () => {
  it('is refused before any DOM is built: EXTRACT_TOO_COMPLEX', async () => {
    const started = Date.now();
    const error = await failure(extractor, { bytes: nested(100_000), mimeType: 'text/html' });
    expect(error).toMatchObject({ code: 'EXTRACT_TOO_COMPLEX', retryable: false, details: { maxDepth: 512 } });
    expect(Date.now() - started).toBeLessThan(15_000);
    await stillWorks();
  });

  it('with the depth guard off, the time limit kills the parse: EXTRACT_TIMEOUT', async () => {
    // linkedom needs tens of seconds for this nesting; the sandbox gives it two.
    const error = await failure(extractor, { bytes: nested(100_000), mimeType: 'text/html' }, { maxHtmlDepth: 1e9, maxHtmlElements: 1e9, timeoutMs: 2000 });
    expect(error.code).toBe('EXTRACT_TIMEOUT');
    await stillWorks();
  });

  it('nesting within the limit is read normally', async () => {
    const doc = await extractor.extract({ bytes: nested(400), mimeType: 'text/html' });
    expect(doc.text).toBe('deep');
  });
});

describe('a 50 MB page', () => {
  it('is refused by size before it is decoded or sent anywhere: EXTRACT_TOO_LARGE', async () => {
    const page = Buffer.alloc(50 * MB, '<p>filler text</p>');
    const started = extractor.counters.started;
    const error = await failure(extractor, { bytes: page, mimeType: 'text/html' });
    expect(error).toMatchObject({ code: 'EXTRACT_TOO_LARGE', details: { bytes: 50 * MB, limitBytes: 25 * MB } });
    expect(extractor.counters.started).toBe(started);
  });

  it('a page that is mostly script is measured without its scripts', async () => {
    const page = html(`<html><head><title>App</title><script>${'x'.repeat(8 * MB)}</script></head><body><p>Real content.</p></body></html>`);
    const doc = await extractor.extract({ bytes: page, mimeType: 'text/html' });
    expect(doc.text).toBe('Real content.');
  });
});

describe('isolation', () => {
  it('a hostile document fails alone: documents running beside it complete', async () => {
    const results = await Promise.allSettled([
      extractor.extract({ bytes: bomb, mimeType: 'application/pdf' }, { maxPdfInflatedBytes: Infinity, timeoutMs: 3000 }),
      extractor.extract(normalPdf),
      extractor.extract(normalHtml),
      extractor.extract(normalPdf),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    // Which limit kills the bomb first depends on how fast this machine inflates it (a loaded CI
    // box reaches the time limit first, a quiet one the memory cap); either is the sandbox's kill.
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: expect.stringMatching(/^EXTRACT_(TIMEOUT|MEMORY_LIMIT)$/) });
  });

  it('V8 heap exhaustion inside the sandbox is EXTRACT_MEMORY_LIMIT, not a dead worker', async () => {
    const small = createExtractor({ size: 1, maxHeapMb: 64 });
    try {
      const paragraphs = '<p>Lorem ipsum dolor sit amet, <a href="/x">consectetur</a> adipiscing elit.</p>'.repeat(40_000);
      const error = await failure(small, { bytes: html(`<html><body>${paragraphs}</body></html>`), mimeType: 'text/html' }, { timeoutMs: 120_000 });
      expect(error.code).toBe('EXTRACT_MEMORY_LIMIT');
    } finally {
      await small.close();
    }
  });

  it("the parent's memory stayed bounded through all of the above", () => {
    // The bombs inflated to 400 MB, the sandboxes were killed at 220-512 MB: none of it here.
    expect(process.memoryUsage().rss - rssAtStart).toBeLessThan(150 * MB);
  });
});
