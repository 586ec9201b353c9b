/**
 * Benchmark of chunkDocument on real markdown: the fastify documentation that ships in the
 * fastify npm package, cut into documents of 100 KB.
 *
 *   npm run bench:chunking
 *
 * Reports the median time to chunk one 100 KB document beside a reference measured in the same
 * run on the same text (sha256 of the document plus splitting it into lines: one linear pass),
 * since machines are shared and noisy.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkDocument, chunkingVersion } from '../src/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const docsRoot = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');
const fastifyVersion = (JSON.parse(readFileSync(path.join(docsRoot, '../package.json'), 'utf8')) as { version: string }).version;

let all = '';
for (const dir of ['Reference', 'Guides']) {
  for (const file of readdirSync(path.join(docsRoot, dir)).sort()) {
    if (file.endsWith('.md')) all += readFileSync(path.join(docsRoot, dir, file), 'utf8') + '\n\n';
  }
}
const SIZE = 100 * 1024;
const documents: string[] = [];
for (let start = 0; start + SIZE <= all.length; start += SIZE) documents.push(all.slice(start, start + SIZE));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
for (const doc of documents) chunkDocument({ title: 'warm-up', text: doc });
const chunkMs: number[] = [];
const chunkCpuMs: number[] = [];
const referenceMs: number[] = [];
let chunks = 0;
let overBudget = 0;
for (let run = 0; run < 5; run++) {
  for (const doc of documents) {
    let start = performance.now();
    createHash('sha256').update(doc).digest();
    doc.split('\n');
    referenceMs.push(performance.now() - start);
    start = performance.now();
    const cpu = process.cpuUsage();
    const out = chunkDocument({ title: 'Fastify', text: doc });
    const used = process.cpuUsage(cpu);
    chunkMs.push(performance.now() - start);
    chunkCpuMs.push((used.user + used.system) / 1000);
    if (run === 0) {
      chunks += out.length;
      overBudget += out.filter((c) => c.tokenCount > 400).length;
    }
  }
}

const result = {
  benchmark: 'chunking',
  command: 'npm run bench:chunking',
  chunking: chunkingVersion,
  corpus: { source: `fastify@${fastifyVersion} docs/Reference + docs/Guides`, documents: documents.length, bytesEach: SIZE },
  medianMsPer100KB: Number(median(chunkMs).toFixed(2)),
  // CPU time is steadier than wall time when other processes share the cores.
  medianCpuMsPer100KB: Number(median(chunkCpuMs).toFixed(2)),
  referenceMedianMsPer100KB: Number(median(referenceMs).toFixed(3)),
  ratioToReference: Number((median(chunkMs) / median(referenceMs)).toFixed(1)),
  chunksPer100KB: Number((chunks / documents.length).toFixed(1)),
  chunksOverBudget: overBudget,
  runs: 5,
  node: process.version,
  measuredAt: new Date().toISOString(),
};
const out = path.join(repoRoot, 'bench/results/chunking.json');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
console.log(JSON.stringify(result, null, 2));
console.log(`wrote ${path.relative(repoRoot, out)}; reproduce with: ${result.command}`);
