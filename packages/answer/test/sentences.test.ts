import { describe, expect, it } from 'vitest';
import { sentenceSpans } from '../src/text/sentences.ts';
import { terms } from '../src/text/terms.ts';

describe('sentenceSpans', () => {
  it('splits prose into sentences whose offsets give back the passage text', () => {
    const content = 'Refunds take five days. Ask billing, e.g. by email! Is that all?\nYes, it is.';
    const spans = sentenceSpans(content);
    expect(spans.map((s) => s.text)).toEqual([
      'Refunds take five days.',
      'Ask billing, e.g. by email!',
      'Is that all?',
      'Yes, it is.',
    ]);
    for (const s of spans) expect(content.slice(s.start, s.end)).toBe(s.text);
  });

  it('skips headings, code blocks, table rules and bare HTML; keeps list items and table rows', () => {
    const content = [
      '## Limits',
      '<a id="limits"></a>',
      '- `bodyLimit`: the largest payload accepted.',
      '```js',
      'fastify({ bodyLimit: 1 }). This is code.',
      '```',
      '| option | default |',
      '| --- | --- |',
      '| bodyLimit | 1MiB |',
    ].join('\n');
    const texts = sentenceSpans(content).map((s) => s.text);
    expect(texts).toEqual(['`bodyLimit`: the largest payload accepted.', '| option | default |', '| bodyLimit | 1MiB |']);
  });

  it('does not split inside abbreviations or decimals', () => {
    expect(sentenceSpans('Use v. 2.5 of it, i.e. the latest. Then stop.').map((s) => s.text)).toEqual([
      'Use v. 2.5 of it, i.e. the latest.',
      'Then stop.',
    ]);
  });
});

describe('terms', () => {
  it('normalises case and width, drops stop words, stems words and keeps identifiers whole', () => {
    expect(terms('How do I configure the Routes?')).toEqual(['configur', 'rout']);
    expect(terms('ＦＳＴ_ERR_CTP_BODY_TOO_LARGE onRequest hooks')).toEqual(['fst_err_ctp_body_too_large', 'onrequest', 'hook']);
    expect(terms('configured configuration')).toEqual(['configur', 'configur']);
  });

  it('writes contractions out, so none leaves a fragment like "didn" behind', () => {
    expect(terms("The file didn't shrink, it won't, and I can't say we've tried; they’re gone")).toEqual(['file', 'shrink', 'sai', 'tri', 'gone']);
    expect(terms("Python's dict isn’t ordered")).toEqual(['python', 'dict', 'order']);
  });

  it('reads "in order to" as "to": the idiom says nothing of an order', () => {
    expect(terms('In order to delete a row, insert its rowid. In order for it to work, and in order that it may.')).toEqual(['delet', 'row', 'insert', 'rowid', 'work']);
    // The noun stays: rows "in order", "in sorted order", "the order of rows".
    expect(terms('Rows come back in order; in sorted order; the order to expect')).toEqual(['row', 'come', 'back', 'order', 'sort', 'order', 'order', 'expect']);
  });

  it('reads "how many" and "how much" as "how": a question asking for a count is not about "many" things', () => {
    expect(terms('How many kinds of files, and how\nmuch memory?')).toEqual(['kind', 'file', 'memori']);
    // Elsewhere the word stays: "too many connections", "many temporary files".
    expect(terms('too many connections; many temporary files')).toEqual(['mani', 'connect', 'mani', 'temporari', 'file']);
  });
});
