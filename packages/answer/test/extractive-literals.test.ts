import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { holdsLiteral, literalsOf } from '../src/text/literals.ts';
import type { Passage } from '../src/types.ts';

// A range reference as a versioning library's README writes it: each form of a range beside what
// it desugars to, one list item each, under a heading that names the kind of range.
const tilde: Passage = {
  n: 1,
  title: 'semver README',
  url: null,
  heading: 'Ranges › Advanced Range Syntax › Tilde Ranges `~1.2.3` `~1.2` `~1`',
  content:
    'Allows patch-level changes if a minor version is specified on the comparator. Allows minor-level changes if not.\n\n' +
    '* `~1.2.3-beta.2` := `>=1.2.3-beta.2 <1.3.0-0` Note that prereleases in the `1.2.3` version will be allowed, if they are greater than or equal to `beta.2`.\n' +
    '* `~1.2.3` := `>=1.2.3 <1.3.0-0`\n' +
    '* `~1.2` := `>=1.2.0 <1.3.0-0` (Same as `1.2.x`)\n' +
    '* `~1` := `>=1.0.0 <2.0.0-0` (Same as `1.x`)\n',
};

const hyphen: Passage = {
  n: 2,
  title: 'semver README',
  url: null,
  heading: 'Ranges › Advanced Range Syntax › Hyphen Ranges `X.Y.Z - A.B.C`',
  content:
    'If a partial version is provided as the second version in the inclusive range, then all versions that start with the supplied parts of the tuple are accepted, but nothing that would be greater than the provided tuple parts.\n\n' +
    '* `1.2.3 - 2.3.4` := `>=1.2.3 <=2.3.4`\n' +
    '* `1.2.3 - 2.3` := `>=1.2.3 <2.4.0-0`\n',
};

describe('values the question writes out', () => {
  it('finds versions, ranges and addresses, which terms drop as one-digit tokens', () => {
    expect(literalsOf('What does the tilde range ~1.2.3 expand to?')).toEqual(['~1.2.3']);
    expect(literalsOf('What does the hyphen range "1.2.3 - 2.3" desugar to?')).toEqual(['1.2.3', '2.3']);
    expect(literalsOf('Why is 0.0.0.0:3000 unreachable?')).toEqual(['0.0.0.0:3000']);
    // Plain numbers are terms already, and a sign without a digit is a name, not a value.
    expect(literalsOf('Is 8000 bytes the limit for http.server?')).toEqual([]);
  });

  it('keeps the first eight of a pasted log, which writes values by the dozen', () => {
    const log = Array.from({ length: 40 }, (_, i) => `12:00:${String(i).padStart(2, '0')}.000 retry 10.0.0.${i}:5432`).join(' ');
    const values = literalsOf(`Why does this keep failing? ${log}`);
    expect(values).toHaveLength(8);
    expect(values.slice(0, 2)).toEqual(['12:00:00.000', '10.0.0.0:5432']);
  });

  it('matches a value only as a whole', () => {
    expect(holdsLiteral('* `~1.2.3` := `>=1.2.3 <1.3.0-0`', '~1.2.3')).toBe(true);
    expect(holdsLiteral('* `~1.2.3-beta.2` := `>=1.2.3-beta.2`', '~1.2.3')).toBe(false);
    expect(holdsLiteral('`1.2.3 - 2.3.4`', '2.3')).toBe(false);
    expect(holdsLiteral('Version 1.2.3 is out.', '2.3')).toBe(false);
    expect(holdsLiteral('Version 11.2.3 is out.', '1.2.3')).toBe(false);
    expect(holdsLiteral('Use 2.3, not 2.4.', '2.3')).toBe(true);
  });

  it('quotes the line that writes the value the question writes', async () => {
    const answer = await createExtractiveAnswerer().answer({ question: 'What does the tilde range ~1.2.3 expand to?', passages: [tilde, hyphen] });
    const first = answer.text.split('\n')[1];
    expect(first).toBe('> `~1.2.3` := `>=1.2.3 <1.3.0-0` [1]');
  });

  it('prefers the line holding every value the question writes', async () => {
    const answer = await createExtractiveAnswerer().answer({ question: 'What does the hyphen range 1.2.3 - 2.3 desugar to?', passages: [hyphen, tilde] });
    const lines = answer.text.split('\n');
    // The list's lead-in comes with the item, then the item that writes both values.
    expect(lines[1]).toMatch(/^> If a partial version is provided as the second version/);
    expect(lines[2]).toBe('> `1.2.3 - 2.3` := `>=1.2.3 <2.4.0-0` [2]');
    // "2.3.4" begins with "2.3" but is another version.
    const other = lines.indexOf('> `1.2.3 - 2.3.4` := `>=1.2.3 <=2.3.4` [2]');
    expect(other === -1 || other > 2).toBe(true);
  });

  it('finds a path the question writes in the code block a sentence announces', async () => {
    const fence = '```';
    const options: Passage = {
      n: 1,
      title: 'find-my-way',
      url: null,
      heading: 'find-my-way › API › FindMyWay([options])',
      content:
        'You can set a custom length for parameters by using `maxParamLength` option, the default value is 100 characters. If the maximum length limit is reached, the default route handler will be invoked.\n\n' +
        'Trailing slashes can be ignored by supplying the `ignoreTrailingSlash` option:\n' +
        `${fence}js\nconst router = require('find-my-way')({ ignoreTrailingSlash: true })\n// maps "/foo/" and "/foo" to \`handler\`\nrouter.on('GET', '/foo/', handler)\n${fence}\n\n` +
        'Duplicate slashes can be ignored by supplying the `ignoreDuplicateSlashes` option:\n' +
        `${fence}js\nconst router = require('find-my-way')({ ignoreDuplicateSlashes: true })\n// maps "/foo", "//foo", "///foo", etc to \`handler\`\nrouter.on('GET', '////foo', handler)\n${fence}\n`,
    };
    expect(literalsOf('How can /foo/ and /foo reach the same handler?')).toEqual(['/foo/', '/foo']);
    const answer = await createExtractiveAnswerer().answer({ question: 'How can /foo/ and /foo reach the same handler?', passages: [options] });
    const lines = answer.text.split('\n');
    expect(lines[1]).toBe('> Trailing slashes can be ignored by supplying the `ignoreTrailingSlash` option: [1]');
    expect(lines[2]).toBe(`${fence}js`);
  });
});
