/**
 * What the sandbox costs: a document extracted in a pooled child process (warm), the first
 * document of a fresh pool (cold: spawn, load parsers, extract), against the same extraction
 * run in-process, measured in the same run on the same documents.
 *
 *   npm run bench:extract            (writes bench/results/extract-sandbox.json)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createExtractor, DEFAULT_EXTRACT_LIMITS, type ExtractInput } from '../src/index.ts';
import { extractHtml } from '../src/html/extract-html.ts';
import { extractPdf } from '../src/pdf/extract-pdf.ts';
import { textPdf } from '@brain/testkit';

const WARM_RUNS = 30;
const COLD_RUNS = 3;

const section = (n: number) =>
  `<h2>Section ${n}</h2><p>${'The worker claims a job, fetches the source, extracts its text and embeds the passages. '.repeat(6)}<a href="/docs/${n}">more</a></p><ul><li>first point</li><li>second point with <code>code</code></li></ul>`;
const article: ExtractInput = {
  bytes: Buffer.from(`<!doctype html><html><head><title>Bench article</title><meta name="author" content="Bench"></head><body><nav>menu</nav><article><h1>Bench article</h1>${Array.from({ length: 40 }, (_, i) => section(i)).join('')}</article></body></html>`),
  mimeType: 'text/html',
  url: 'https://docs.example.com/guide/',
};
const pdf: ExtractInput = {
  bytes: textPdf({ title: 'Bench PDF', pages: Array.from({ length: 3 }, (_, p) => Array.from({ length: 40 }, (_, l) => `Page ${p + 1} line ${l + 1} of steady ordinary prose.`)) }),
  mimeType: 'application/pdf',
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
async function timeRuns(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await Promise.resolve(fn());
    times.push(performance.now() - started);
  }
  return Math.round(median(times) * 10) / 10;
}

/** Alternates the two sides run by run, so both see the same machine load (it is shared and noisy). */
async function timePairs(runs: number, reference: () => unknown, candidate: () => unknown): Promise<[number, number]> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    let started = performance.now();
    await Promise.resolve(reference());
    a.push(performance.now() - started);
    started = performance.now();
    await Promise.resolve(candidate());
    b.push(performance.now() - started);
  }
  return [Math.round(median(a) * 10) / 10, Math.round(median(b) * 10) / 10];
}

const limits = { ...DEFAULT_EXTRACT_LIMITS };
const extractor = createExtractor({ size: 1 });
await extractor.warm();
// Warm both sides first (parsers loaded, JIT settled), then compare steady state.
for (let i = 0; i < 3; i++) {
  extractHtml({ bytes: article.bytes, url: article.url }, limits);
  await extractPdf(pdf.bytes, limits);
  await extractor.extract(article);
  await extractor.extract(pdf);
}
const [inProcessHtml, sandboxHtml] = await timePairs(WARM_RUNS, () => extractHtml({ bytes: article.bytes, url: article.url }, limits), () => extractor.extract(article));
const [inProcessPdf, sandboxPdf] = await timePairs(WARM_RUNS, () => extractPdf(pdf.bytes, limits), () => extractor.extract(pdf));
await extractor.close();

const coldFirstHtml = await timeRuns(COLD_RUNS, async () => {
  const fresh = createExtractor({ size: 1 });
  await fresh.extract(article);
  await fresh.close();
});
const coldStart = await timeRuns(COLD_RUNS, async () => {
  const fresh = createExtractor({ size: 1 });
  await fresh.warm();
  await fresh.close();
});

const result = {
  benchmark: 'extract-sandbox',
  command: 'npm run bench:extract',
  node: process.version,
  cpus: os.availableParallelism(),
  loadAverage1m: os.loadavg()[0],
  documents: { htmlBytes: article.bytes.byteLength, pdfBytes: pdf.bytes.byteLength, pdfPages: 3 },
  medianMs: {
    html: { inProcess: inProcessHtml, sandboxWarm: sandboxHtml, overhead: Math.round((sandboxHtml - inProcessHtml) * 10) / 10 },
    pdf: { inProcess: inProcessPdf, sandboxWarm: sandboxPdf, overhead: Math.round((sandboxPdf - inProcessPdf) * 10) / 10 },
    coldStartProcess: coldStart,
    coldFirstHtmlDocument: coldFirstHtml,
  },
  runs: { warm: WARM_RUNS, cold: COLD_RUNS },
};
const out = path.resolve(fileURLToPath(new URL('../../../bench/results/', import.meta.url)), 'extract-sandbox.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
console.log(`\nwrote ${path.relative(process.cwd(), out)}; reproduce with: npm run bench:extract`);
