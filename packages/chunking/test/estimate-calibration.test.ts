import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../src/index.ts';

// The estimate against OpenAI's cl100k tokenizer on real markdown: the fastify documentation.
describe('estimateTokens calibration', () => {
  it('errs high on real documentation, so a passage within the budget is within it for a real tokenizer too', () => {
    const docs = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');
    const encoder = getEncoding('cl100k_base');
    const ratios: number[] = [];
    for (const dir of ['Reference', 'Guides']) {
      for (const file of readdirSync(path.join(docs, dir))) {
        for (const chunk of chunkDocument({ title: file, text: readFileSync(path.join(docs, dir, file), 'utf8') })) {
          ratios.push(chunk.tokenCount / encoder.encode(chunk.content).length);
        }
      }
    }
    ratios.sort((a, b) => a - b);
    const at = (p: number) => ratios[Math.floor(p * (ratios.length - 1))] as number;
    console.info(`estimate / cl100k over ${ratios.length} passages: min ${at(0).toFixed(2)}, p5 ${at(0.05).toFixed(2)}, median ${at(0.5).toFixed(2)}, p95 ${at(0.95).toFixed(2)}`);
    expect(ratios.length).toBeGreaterThan(500);
    expect(at(0.05)).toBeGreaterThanOrEqual(1);
    expect(at(0.5)).toBeGreaterThan(1.1);
    expect(at(0.5)).toBeLessThan(1.6);
    // Never far below: a 400-token passage stays well inside any embedding model's input limit.
    expect(at(0)).toBeGreaterThan(0.8);
  });
});
