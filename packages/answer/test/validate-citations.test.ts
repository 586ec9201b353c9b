import { describe, expect, it } from 'vitest';
import { validateCitations } from '../src/citations/validate-citations.ts';
import type { Passage } from '../src/types.ts';

const passages: Passage[] = [
  { n: 1, title: 'Billing FAQ', url: 'https://docs.example.com/billing', heading: null, content: 'Refunds are processed within five business days. Contact billing@example.com.' },
  { n: 2, title: 'Security', url: 'https://docs.example.com/security', heading: null, content: 'Passwords rotate every 90 days. See https://docs.example.com/security/rotation for details.' },
  { n: 3, title: 'Onboarding', url: null, heading: null, content: 'New members get the Newcomer role on day one.' },
];

describe('validateCitations', () => {
  it('keeps valid markers, renumbers them in order of first use, and lists only what is cited', () => {
    const out = validateCitations('Passwords rotate every 90 days [2]. Refunds take five days [1]. Again [2].', passages);
    expect(out.text).toBe('Passwords rotate every 90 days [1]. Refunds take five days [2]. Again [1].');
    expect(out.cited).toEqual([
      { n: 1, passageN: 2 },
      { n: 2, passageN: 1 },
    ]);
    expect(out.removedMarkers).toEqual([]);
  });

  it('removes markers that name no passage of this request, including [0] and [99]', () => {
    const out = validateCitations('Refunds take five days [0]. Passwords rotate [99]. Roles [3].', passages);
    expect(out.text).toBe('Refunds take five days. Passwords rotate. Roles [1].');
    expect(out.cited).toEqual([{ n: 1, passageN: 3 }]);
    expect(out.removedMarkers).toEqual(['[0]', '[99]']);
  });

  it('splits lists and ranges, drops their invalid members and collapses repeats', () => {
    expect(validateCitations('A [1,2]. B [2, 7]. C [1-3]. D [^3] [source 1][1].', passages).text).toBe(
      'A [1][2]. B [2]. C [1][2][3]. D [3] [1].',
    );
    const huge = validateCitations('E [1-5000].', passages);
    expect(huge.text).toBe('E.');
    expect(huge.cited).toEqual([]);
  });

  it('leaves code alone: items[0] in a snippet is not a citation', () => {
    const out = validateCitations('Use `items[0]` as shown [1].\n```js\nconst x = arr[2];\n```', passages);
    expect(out.text).toBe('Use `items[0]` as shown [1].\n```js\nconst x = arr[2];\n```');
    expect(out.cited).toEqual([{ n: 1, passageN: 1 }]);
  });

  it('keeps a quotation found in the cited passage (case, spacing and typographic quotes aside)', () => {
    const out = validateCitations('The FAQ says “refunds are processed  within five business days” [1].', passages);
    expect(out.text).toBe('The FAQ says “refunds are processed within five business days” [1].');
    expect(out.removedQuotes).toEqual([]);
  });

  it('removes the sentence of a quotation its cited passage does not contain, even if another passage does', () => {
    const out = validateCitations(
      'Refunds are quick [1]. The FAQ says "refunds are instant for everyone" [1]. Rotation is "every 90 days" [1]. Roles "get the Newcomer role" [3].',
      passages,
    );
    expect(out.text).toBe('Refunds are quick [1]. Roles "get the Newcomer role" [2].');
    expect(out.removedQuotes).toEqual(['refunds are instant for everyone', 'every 90 days']);
  });

  it('accepts a quotation with an ellipsis when its parts appear in order', () => {
    const out = validateCitations('It says "Refunds are processed ... five business days" [1].', passages);
    expect(out.removedQuotes).toEqual([]);
    const reordered = validateCitations('It says "five business days ... Refunds are processed" [1].', passages);
    expect(reordered.removedQuotes).toHaveLength(1);
  });

  it('neutralises mass and role mentions so nothing can ping', () => {
    const out = validateCitations('@everyone @Here <@&123456789012345678> <@42> <@!42> refunds [1]', passages);
    expect(out.text).not.toMatch(/@(everyone|here)\b/i);
    expect(out.text).not.toMatch(/<@[!&]?\d+>/);
    expect(out.text).toContain('@\u200beveryone');
  });

  it('keeps only the cited sources’ own links, unmasks masked links, drops invites', () => {
    const out = validateCitations(
      'See https://docs.example.com/security [2] and https://docs.example.com/security/rotation. ' +
        '[Docs](https://evil.test/?q=secret) or [https://docs.example.com/billing](https://evil.test/x). ' +
        'Join discord.gg/freenitro www.evil.test/a https://docs.example.com/billing is not cited.',
      passages,
    );
    expect(out.text).toContain('See https://docs.example.com/security [1]');
    // Written inside passage 2, but not its address: a model answer may not carry it.
    expect(out.text).not.toContain('security/rotation');
    expect(out.text).not.toContain('evil.test');
    expect(out.text).not.toContain('discord.gg');
    // passage 1's URL is not cited by this answer, so it is not allowed either
    expect(out.text).not.toContain('docs.example.com/billing');
    expect(out.text).toContain('Docs');
  });

  it('also keeps links written inside cited passages when asked to (extractive quotations)', () => {
    const text = '> See https://docs.example.com/security/rotation for details. [2]';
    expect(validateCitations(text, passages, { allowLinksInPassages: true }).text).toBe(text.replace('[2]', '[1]'));
    expect(validateCitations(text, passages).text).toBe('> See (link removed) for details. [1]');
  });

  it('reads only the marker ending a quoted line of an extractive answer: brackets inside the quotation are its text', () => {
    const json: Passage[] = [
      { n: 4, title: 'JSON', url: null, heading: null, content: "json_set('[0,1,2]','$[#]','new') → '[0,1,2,\"new\"]' as RFC 7159 [3] says, with `a[1]` too." },
    ];
    const text = "> json_set('[0,1,2]','$[#]','new') → '[0,1,2,\"new\"]' as RFC 7159 [3] says, with `a[1]` too. [4]";
    const out = validateCitations(text, json, { quotedLines: true });
    expect(out.text).toBe(text.replace(/\[4\]$/, '[1]'));
    expect(out.cited).toEqual([{ n: 1, passageN: 4 }]);
    expect(out.removedMarkers).toEqual([]);
    // Read as an answer a model wrote, the same brackets are markers.
    expect(validateCitations(text, json).text).not.toContain("'[0,1,2]'");
  });

  it('removes bidi overrides and zero-width characters that could disguise text', () => {
    const out = validateCitations('Safe\u202e text\u200b @\u200deveryone [1]', passages);
    expect(out.text).toBe('Safe text @\u200beveryone [1]');
  });

  it('returns no citations for text that cites nothing', () => {
    const out = validateCitations("I don't know from the saved sources.", passages);
    expect(out.cited).toEqual([]);
  });
});

describe('validateCitations: sentence boundaries around quotations', () => {
  it('removes only the sentence with the fabricated quotation when the quotation ends a sentence', () => {
    const out = validateCitations('It says "refunds are instant for all." [1] Roles are given on day one [3].', passages);
    expect(out.text).toBe('Roles are given on day one [1].');
  });
});
