import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { chunkDocument, estimateTokens } from '../src/index.ts';
import { SAMPLES } from './fixtures/multilingual-samples.ts';

// The estimate against OpenAI's cl100k tokenizer on text that is not English prose: the budget
// promises that a passage of 400 estimated tokens is at most 400 real ones.
const encoder = getEncoding('cl100k_base');
const real = (text: string) => encoder.encode(text).length;

/** A numeric table as spreadsheets export them: dates, decimals, negatives, thousands separators. */
function numericTable(rows: number): string {
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647);
  const lines = ['| date | ratio | amount | change | count |', '| --- | --- | --- | --- | --- |'];
  for (let i = 0; i < rows; i++) {
    const day = `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const count = (next() % 9_000_000).toLocaleString('en-US');
    lines.push(`| ${day} | 0.${next() % 10_000} | ${next() % 100_000}.${next() % 100} | ${next() % 2 ? '-' : ''}${next() % 50}.${next() % 10} | ${count} |`);
  }
  return lines.join('\n');
}

const cases: [string, string][] = [...Object.entries(SAMPLES), ['numeric table', numericTable(40)]];

describe('estimateTokens errs high beyond English', () => {
  it.each(cases)('%s: the estimate is at least the cl100k count', (_, text) => {
    expect(estimateTokens(text)).toBeGreaterThanOrEqual(real(text));
  });

  it.each(cases)('%s: no 400-token passage holds more than 400 real tokens', (name, text) => {
    const document = Array.from({ length: 8 }, (_, i) => `## ${name} ${i + 1}\n\n${text}\n\n${text}\n\n${text}`).join('\n\n');
    const chunks = chunkDocument({ title: name, text: document }, { maxTokens: 400 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(400);
      expect(real(chunk.content)).toBeLessThanOrEqual(chunk.tokenCount);
    }
  });

  it('over every sample: how high it errs', () => {
    const ratios = cases.map(([name, text]) => [name, estimateTokens(text) / real(text)] as const).sort((a, b) => a[1] - b[1]);
    const [low, high] = [ratios[0] as readonly [string, number], ratios.at(-1) as readonly [string, number]];
    console.info(`estimate / cl100k over ${ratios.length} samples: min ${low[1].toFixed(2)} (${low[0]}), max ${high[1].toFixed(2)} (${high[0]})`);
    expect(low[1]).toBeGreaterThanOrEqual(1);
  });

  it('a long numeric table, passage by passage', () => {
    const chunks = chunkDocument({ title: 'Ledger', text: numericTable(600) });
    const worst = Math.max(...chunks.map((c) => real(c.content) / c.tokenCount));
    console.info(`numeric table: ${chunks.length} passages, worst cl100k / estimate ${worst.toFixed(2)}`);
    expect(worst).toBeLessThanOrEqual(1);
  });
});
