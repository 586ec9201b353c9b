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

  it('a bodiless heading that only repeats the title gives no passage when the page has others, as every heading says it', () => {
    expect(passages('# Guide\n\n# 1. Introduction\n\nText under it.\n\n# 2. Details\n\nMore text.')).toEqual([
      ['Guide › 1. Introduction', 'Text under it.'],
      ['Guide › 2. Details', 'More text.'],
    ]);
    // The title as a line of its own before the first heading, as SQLite's pages extract: the same.
    expect(passages('Guide\n\n# 1. Introduction\n\nText under it.')).toEqual([['Guide › 1. Introduction', 'Text under it.']]);
    // All the page gives: kept.
    expect(passages('# Guide\n')).toEqual([['Guide', 'Guide']]);
    // Another bodiless heading is not the title: kept, as above.
    expect(passages('# Setup\n\n# Usage\n\nRun it.')).toEqual([
      ['Guide › Setup', 'Setup'],
      ['Guide › Usage', 'Run it.'],
    ]);
  });

  it('merged with small sections, a bodiless heading is its heading line alone, not said twice', () => {
    expect(passages('# Only\n\n## Headings\n\n## Here', true)).toEqual([['Guide › Only', '## Headings\n\n## Here']]);
  });
});
