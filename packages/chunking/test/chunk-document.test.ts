import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { chunkDocument, chunkingVersion, estimateTokens, splitSentences, textForEmbedding } from '../src/index.ts';

/** n distinct, numbered sentences of about 11 estimated tokens each. */
function sentences(n: number, tag = 's'): string[] {
  return Array.from({ length: n }, (_, i) => `Sentence ${tag}${i} talks about topic number ${i} in some detail here.`);
}

describe('chunkDocument', () => {
  it('returns no chunks for empty or whitespace-only input', () => {
    expect(chunkDocument({ title: 'Empty', text: '' })).toEqual([]);
    expect(chunkDocument({ title: 'Blank', text: ' \n\n\t\r\n   \n' })).toEqual([]);
  });

  it('carries the title and heading path on every chunk (sections kept apart)', () => {
    const text = [
      '# Reply',
      'Intro paragraph.',
      '## Methods',
      '### .send(data)',
      'Sends the payload.',
      '### .code(statusCode)',
      'Sets the status code.',
      '## Properties',
      'Read-only fields.',
    ].join('\n');
    const chunks = chunkDocument({ title: 'Fastify', text });
    expect(chunks.map((c) => [c.ordinal, c.heading, c.content])).toEqual([
      [0, 'Fastify › Reply', 'Intro paragraph.'],
      [1, 'Fastify › Reply › Methods › .send(data)', 'Sends the payload.'],
      [2, 'Fastify › Reply › Methods › .code(statusCode)', 'Sets the status code.'],
      [3, 'Fastify › Reply › Properties', 'Read-only fields.'],
    ]);
  });

  it('drops a first heading that repeats the title, repeated levels, and inline markup in headings', () => {
    const text = '# Reply\nA.\n## Reply\n### Properties\nB.\n## [`.send()`](#send) and **more**\nC.\n#### FST_ERR_BAD_STATUS_CODE\nD.';
    const headings = chunkDocument({ title: 'reply', text }).map((c) => c.heading);
    expect(headings).toEqual(['reply', 'reply › Properties', 'reply › .send() and more', 'reply › .send() and more › FST_ERR_BAD_STATUS_CODE']);
  });

  it('with mergeSmallSections, joins consecutive small sections under their common heading, each with its own heading line', () => {
    const text = [
      '# Reply',
      'Intro paragraph.',
      '## Methods',
      '### .send(data)',
      'Sends the payload.',
      '### .code(statusCode)',
      'Sets the status code.',
      '## Properties',
      'Read-only fields.',
    ].join('\n');
    const [chunk, ...rest] = chunkDocument({ title: 'Fastify', text }, { mergeSmallSections: true });
    expect(rest).toEqual([]);
    expect(chunk?.heading).toBe('Fastify › Reply');
    expect(chunk?.content).toBe(
      'Intro paragraph.\n\n### Methods › .send(data)\n\nSends the payload.\n\n### Methods › .code(statusCode)\n\nSets the status code.\n\n## Properties\n\nRead-only fields.',
    );

    // Siblings only: the common path is their parent.
    const siblings = chunkDocument({ title: 'T', text: '## Request\n### .ip\nThe address.\n### .url\nThe URL.' }, { mergeSmallSections: true });
    expect(siblings.map((c) => [c.heading, c.content])).toEqual([['T › Request', '### .ip\n\nThe address.\n\n### .url\n\nThe URL.']]);
  });

  it('with mergeSmallSections, keeps a section too large to share a passage on its own, under its exact heading', () => {
    const big = sentences(60, 'big').join(' ');
    const text = `## Small one\nTiny.\n## Big\n${big}\n## Small two\nAlso tiny.\n## Small three\nTiny again.`;
    const chunks = chunkDocument({ title: 'T', text }, { maxTokens: 120, overlapTokens: 20, mergeSmallSections: true });
    const bigChunks = chunks.filter((c) => c.content.includes('Sentence big'));
    expect(bigChunks.length).toBeGreaterThan(3);
    for (const chunk of bigChunks) {
      expect(chunk.heading).toBe('T › Big');
      expect(chunk.content).not.toMatch(/Tiny|## /);
    }
    expect(chunks[0]).toMatchObject({ heading: 'T › Small one', content: 'Tiny.' });
    expect(chunks.at(-1)).toMatchObject({ heading: 'T', content: '## Small two\n\nAlso tiny.\n\n## Small three\n\nTiny again.' });
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(120);
  });

  it('keeps a document without title or headings headless', () => {
    const [chunk] = chunkDocument({ text: 'Just text.' });
    expect(chunk?.heading).toBe('');
    expect(chunk && textForEmbedding(chunk)).toBe('Just text.');
  });

  it('keeps every section apart by default', () => {
    const chunks = chunkDocument({ title: 'T', text: '## Request\n### .ip\nThe address.\n### .url\nThe URL.' });
    expect(chunks.map((c) => [c.heading, c.content])).toEqual([
      ['T › Request › .ip', 'The address.'],
      ['T › Request › .url', 'The URL.'],
    ]);
  });

  it('packs whole paragraphs while they fit, keeping their line breaks', () => {
    const text = 'Para one line one\nline two.\n\nPara two.\n\n- item a\n- item b';
    const [chunk, ...rest] = chunkDocument({ title: 'T', text });
    expect(rest).toEqual([]);
    expect(chunk?.content).toBe(text);
  });

  it('respects the budget, splits between sentences, and overlaps by whole trailing sentences', () => {
    const all = sentences(120);
    const text = [all.slice(0, 40).join(' '), all.slice(40, 80).join(' '), all.slice(80).join(' ')].join('\n\n');
    const chunks = chunkDocument({ title: 'Long', text }, { maxTokens: 100, overlapTokens: 30 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(100);
      expect(chunk.tokenCount).toBe(estimateTokens(chunk.content));
      // Every piece is made of whole sentences of the input.
      for (const s of splitSentences(chunk.content)) expect(all).toContain(s);
    }
    for (let i = 1; i < chunks.length; i++) {
      const prev = splitSentences((chunks[i - 1] as { content: string }).content);
      const next = splitSentences((chunks[i] as { content: string }).content);
      // The next chunk starts with the previous chunk's last sentences (at least one fits in 30 tokens)…
      const overlap = next.filter((s) => prev.includes(s));
      expect(overlap.length).toBeGreaterThanOrEqual(1);
      expect(next.slice(0, overlap.length)).toEqual(prev.slice(-overlap.length));
      expect(overlap.reduce((n, s) => n + estimateTokens(s), 0)).toBeLessThanOrEqual(30);
      // …and always adds something new.
      expect(next.length).toBeGreaterThan(overlap.length);
    }
    // Nothing is lost: every sentence appears somewhere, in order.
    const seen = new Set(chunks.flatMap((c) => splitSentences(c.content)));
    expect(all.every((s) => seen.has(s))).toBe(true);
  });

  it('has no overlap when overlapTokens is 0, and never overlaps across a heading', () => {
    const text = `# A\n${sentences(30, 'a').join(' ')}\n# B\n${sentences(30, 'b').join(' ')}`;
    const noOverlap = chunkDocument({ title: 'T', text }, { maxTokens: 80, overlapTokens: 0 });
    const joined = noOverlap.flatMap((c) => splitSentences(c.content));
    expect(new Set(joined).size).toBe(joined.length);

    const withOverlap = chunkDocument({ title: 'T', text }, { maxTokens: 80, overlapTokens: 30 });
    for (const chunk of withOverlap) {
      const tag = chunk.heading.endsWith('A') ? 'a' : 'b';
      expect(chunk.content).not.toMatch(tag === 'a' ? /Sentence b/ : /Sentence a/);
    }
  });

  it('keeps a fenced code block whole when it fits, and splits a long one between lines with its fences', () => {
    const small = '```js\nconst a = 1;\n\nconst b = 2;\n```';
    const [one] = chunkDocument({ title: 'Code', text: `Before.\n\n${small}\n\nAfter.` });
    expect(one?.content).toBe(`Before.\n\n${small}\n\nAfter.`);

    const lines = Array.from({ length: 200 }, (_, i) => `const value${i} = compute(${i});`);
    const chunks = chunkDocument({ title: 'Code', text: '```ts\n' + lines.join('\n') + '\n```' }, { maxTokens: 120 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(120);
      expect(chunk.content.startsWith('```ts\n')).toBe(true);
      expect(chunk.content.endsWith('\n```')).toBe(true);
    }
    // Code is never repeated as overlap: every line appears exactly once.
    const body = chunks.flatMap((c) => c.content.split('\n').filter((l) => l.startsWith('const')));
    expect(body).toEqual(lines);
  });

  it('does not read headings inside code, and closes an unclosed fence', () => {
    const chunks = chunkDocument({ title: 'T', text: '## Real\n```sh\n# not a heading\necho hi' });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.heading).toBe('T › Real');
    expect(chunks[0]?.content).toBe('```sh\n# not a heading\necho hi\n```');
  });

  it('splits long lists between items', () => {
    const items = Array.from({ length: 60 }, (_, i) => `- item ${i}: a short description of it`);
    const chunks = chunkDocument({ title: 'List', text: items.join('\n') }, { maxTokens: 64, overlapTokens: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.flatMap((c) => c.content.split('\n'))).toEqual(items);
  });

  it('drops markup-only paragraphs such as HTML anchors', () => {
    const chunks = chunkDocument({ title: 'T', text: '## A\n<a id="a"></a>\n\nReal text.\n## B\n<a id="b"></a>\n<!-- note -->' });
    // B keeps a passage of its own (its heading), as every heading with nothing under it does.
    expect(chunks.map((c) => c.content)).toEqual(['Real text.', 'B']);
  });

  it('hard-cuts only a single sentence over the budget, at spaces when it has them', () => {
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ') + '.';
    const text = `Short before. ${long} Short after.`;
    const chunks = chunkDocument({ title: 'T', text }, { maxTokens: 100, overlapTokens: 20 });
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(100);
      expect(chunk.content).not.toMatch(/word\d+word/);
    }
    const words = chunks.flatMap((c) => c.content.match(/word\d+/g) ?? []);
    // Cut fragments are not repeated as overlap: each word exactly once, in order.
    expect(words).toEqual(Array.from({ length: 300 }, (_, i) => `word${i}`));
    expect(chunks[0]?.content.startsWith('Short before.')).toBe(true);
    expect(chunks.at(-1)?.content.endsWith('Short after.')).toBe(true);
  });

  it('is deterministic, and hashes heading + content', () => {
    const text = `# H\n${sentences(80).join(' ')}\n\n\`\`\`\ncode\n\`\`\``;
    const a = chunkDocument({ title: 'Doc', text });
    const b = chunkDocument({ title: 'Doc', text });
    expect(b).toEqual(a);
    for (const chunk of a) {
      expect(chunk.contentHash).toBe(createHash('sha256').update(`${chunk.heading}\n${chunk.content}`).digest('hex'));
    }
    // The same passage under another title is another passage.
    const renamed = chunkDocument({ title: 'Other', text });
    expect(renamed[0]?.contentHash).not.toBe(a[0]?.contentHash);
    expect(chunkingVersion).toMatch(/^md-v\d+$/);
  });

  it('normalises CRLF line endings', () => {
    expect(chunkDocument({ title: 'T', text: '# A\r\nOne.\r\n\r\nTwo.' })).toEqual(chunkDocument({ title: 'T', text: '# A\nOne.\n\nTwo.' }));
  });

  it('rejects options outside their range with a coded error', () => {
    for (const options of [{ maxTokens: 10 }, { maxTokens: 100, overlapTokens: 60 }, { overlapTokens: -1 }, { maxTokens: 100.5 }]) {
      try {
        chunkDocument({ text: 'x' }, options);
        expect.unreachable();
      } catch (error) {
        expect(isAppError(error, 'CHUNKING_OPTIONS_INVALID')).toBe(true);
      }
    }
  });
});
