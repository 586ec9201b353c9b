import { describe, expect, it } from 'vitest';
import { chunkDocument, estimateTokens } from '../src/index.ts';

// Timings here are reported, not asserted tightly: this machine is shared, and speed targets
// belong in benchmarks. The generous bounds only catch a quadratic blow-up.
describe('chunkDocument on hostile and large input', () => {
  it('cuts one 200 KB line without spaces into passages within the budget', () => {
    const line = 'abcdefghij'.repeat(20_000);
    const start = performance.now();
    const chunks = chunkDocument({ title: 'Blob', text: line });
    const ms = performance.now() - start;
    console.info(`200 KB line without spaces: ${chunks.length} chunks in ${ms.toFixed(1)} ms`);
    expect(chunks.map((c) => c.content).join('')).toBe(line);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(400);
    expect(ms).toBeLessThan(5_000);
  });

  it('handles 10,000 headings', () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `${'#'.repeat((i % 6) + 1)} Heading ${i}\nText ${i}.`).join('\n');
    const start = performance.now();
    const chunks = chunkDocument({ title: 'Many', text });
    const ms = performance.now() - start;
    console.info(`10,000 headings: ${chunks.length} chunks in ${ms.toFixed(1)} ms`);
    expect(chunks).toHaveLength(10_000);
    // Merged, the same sections fill far fewer passages, each within the budget, none lost.
    const merged = chunkDocument({ title: 'Many', text }, { mergeSmallSections: true });
    expect(merged.length).toBeLessThan(2_000);
    for (const chunk of merged) expect(chunk.tokenCount).toBeLessThanOrEqual(400);
    const texts = merged.flatMap((c) => c.content.match(/Text \d+\./g) ?? []);
    expect(texts).toEqual(Array.from({ length: 10_000 }, (_, i) => `Text ${i}.`));
    expect(chunks[7]?.heading).toBe('Many › Heading 6 › Heading 7');
    expect(chunks[11]?.heading).toBe('Many › Heading 6 › Heading 7 › Heading 8 › Heading 9 › Heading 10 › Heading 11');
    expect(ms).toBeLessThan(5_000);
  });

  it('caps a heading line of 200 KB', () => {
    const [chunk] = chunkDocument({ title: 'T', text: `# ${'long '.repeat(40_000)}\nBody.` });
    expect(chunk?.heading.length).toBeLessThan(200);
    expect(chunk?.content).toBe('Body.');
  });

  it('chunks a 100 KB document quickly (reported)', () => {
    const paragraph = (i: number) =>
      `Paragraph ${i} explains how the server handles a request, e.g. routing and validation. ` +
      `It mentions reply.send() and version v4.2.1, then ends. A second sentence adds more detail about hooks.`;
    const sections: string[] = [];
    for (let i = 0; sections.join('\n').length < 100_000; i++) {
      sections.push(`## Section ${i}\n\n${paragraph(i)}\n\n${paragraph(i + 1)}\n\n\`\`\`js\nfastify.get('/${i}', handler)\n\`\`\`\n\n- item one\n- item two`);
    }
    const text = sections.join('\n\n');
    chunkDocument({ title: 'Warm-up', text });
    const runs: number[] = [];
    let count = 0;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      count = chunkDocument({ title: 'Big', text }).length;
      runs.push(performance.now() - start);
    }
    runs.sort((a, b) => a - b);
    console.info(`${(text.length / 1024).toFixed(0)} KB document: ${count} chunks, median ${runs[2]?.toFixed(1)} ms over 5 runs`);
    expect(count).toBeGreaterThan(50);
    expect(runs[2]).toBeLessThan(1_000);
  });

  it('keeps every chunk of real-looking text within the budget', () => {
    const words = Array.from({ length: 5_000 }, (_, i) => (i % 17 === 0 ? 'end.' : i % 23 === 0 ? 'FST_ERR_SOMETHING_LONG_IDENTIFIER' : 'token'));
    for (const chunk of chunkDocument({ title: 'T', text: words.join(' ') }, { maxTokens: 50, overlapTokens: 10 })) {
      expect(estimateTokens(chunk.content)).toBeLessThanOrEqual(50);
    }
  });
});
