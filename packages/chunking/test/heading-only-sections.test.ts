import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../src/index.ts';

const passages = (text: string, mergeSmallSections = false) =>
  chunkDocument({ title: 'Guide', text }, { mergeSmallSections }).map((c) => [c.heading, c.content]);

describe('headings with nothing under them', () => {
  it('a page of headings alone still gives passages, one per heading that would otherwise vanish', () => {
    expect(passages('# A\n## B\n### C\n')).toEqual([['Guide › A › B › C', 'C']]);
    expect(passages('# Install\n\n# Upgrade\n\n# Remove\n')).toEqual([
      ['Guide › Install', 'Install'],
      ['Guide › Upgrade', 'Upgrade'],
      ['Guide › Remove', 'Remove'],
    ]);
  });

  it('a bodiless heading followed by a sibling or a higher heading keeps a passage; a parent lives on in its children', () => {
    expect(passages('# A\n\n## B\n\n## C\n\nText under C.\n\n# D\n\nText under D.')).toEqual([
      ['Guide › A › B', 'B'],
      ['Guide › A › C', 'Text under C.'],
      ['Guide › D', 'Text under D.'],
    ]);
  });

  it('headings and short items together: nothing is lost', () => {
    const text = '## Requirements\n\n## Steps\n\n- clone\n- build\n\n## Done';
    expect(passages(text)).toEqual([
      ['Guide › Requirements', 'Requirements'],
      ['Guide › Steps', '- clone\n- build'],
      ['Guide › Done', 'Done'],
    ]);
  });

  it('merged with small sections, a bodiless heading is its heading line alone, not said twice', () => {
    expect(passages('# Only\n\n## Headings\n\n## Here', true)).toEqual([['Guide › Only', '## Headings\n\n## Here']]);
  });
});
