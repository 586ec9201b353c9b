import { describe, expect, it } from 'vitest';
import { askersWording, docWordsFor, searchTextOf } from '../src/text/doc-vocabulary.ts';

describe('the documentation’s words for a question in a user’s words', () => {
  it('adds them for a phrase matched by its words’ stems, in order', () => {
    expect(docWordsFor('How do I copy a folder with all its subfolders?')).toEqual(['directory', 'subdirectory', 'recursively']);
    expect(docWordsFor('How can I keep a running total while reading numbers?')).toEqual(['accumulate', 'cumulative']);
    expect(docWordsFor('Can I pause the loop between requests?')).toEqual(['sleep', 'delay', 'suspend']);
    // A British spelling finds the American one most manuals use.
    expect(docWordsFor('Can I turn off the colours and customise the behaviour?')).toEqual(['disable', 'color', 'colors', 'colored', 'behavior', 'customize', 'customization']);
    // Switches and limits as askers put them: "turn them off" is what a manual calls disabling.
    expect(docWordsFor('How many retries are made, and how do I turn them off?')).toEqual(['disable']);
    expect(docWordsFor('How do I force passwords of at least twelve characters?')).toEqual(['minimum']);
    // An iframe is what a web framework's docs call a frame (X-Frame-Options, clickjacking).
    expect(docWordsFor('How do I stop other sites showing my pages inside an iframe?')).toEqual(['frame']);
    // What a name stands for is where a page calls it an acronym.
    expect(docWordsFor('What does the name of the ort merge strategy stand for?')).toEqual(['acronym', 'abbreviation']);
    // How big or how long a thing can be is its size or length, and the limit is a maximum.
    expect(docWordsFor('How long can a LIKE pattern be before it is rejected?')).toEqual(['length', 'maximum']);
    expect(docWordsFor('How big can a message be?')).toEqual(['size', 'maximum']);
    expect(docWordsFor('How long does the build take?')).toEqual([]);
  });

  it('adds nothing for words the question already holds, or for a phrase’s words out of order', () => {
    expect(docWordsFor('How do I copy a directory recursively?')).toEqual([]);
    expect(docWordsFor('What is the total of a running job?')).toEqual([]);
    expect(docWordsFor('What is the default bodyLimit?')).toEqual([]);
  });

  it('says which of the question’s words are the asker’s wording, and the manual’s words for each', () => {
    const wording = askersWording('How do I get a scratch file that disappears?');
    expect(wording.get('scratch')).toEqual(['temporary']);
    expect(wording.get('disappear')).toEqual(['deleted', 'removed']);
    expect(wording.has('get')).toBe(false);
  });

  it('searches for the question as asked, with those words after it', () => {
    expect(searchTextOf('Why does my program hang?')).toBe('Why does my program hang?\ntimeout');
    expect(searchTextOf('What is the default bodyLimit?')).toBe('What is the default bodyLimit?');
  });
});
