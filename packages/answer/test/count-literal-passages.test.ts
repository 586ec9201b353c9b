import { beforeAll, expect, it } from 'vitest';
import { EVERYTHING, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { countLiteralPassages } from '../src/queries/count-literal-passages.ts';
import { holdsLiteral, literalsOf } from '../src/text/literals.ts';
import { codeNameRule, codeNamesOf, writesCodeName } from '../src/text/code-names.ts';
import { createWorkspace, seedDocs } from './seed.ts';

const embedder = createLocalEmbedder();

// A versioning library's README in miniature: its running example "1.2.3" on many passages, the
// range "~1.2.3" on one, and versions that begin or end like the ones asked about.
const passages = [
  'The range `~1.2.3` := `>=1.2.3 <1.3.0-0` allows patch updates.',
  'The range `~1.2.3-beta.2` := `>=1.2.3-beta.2 <1.3.0-0` allows prereleases.',
  'Parse 1.2.3 into its parts.',
  'Compare 1.2.3 with 1.2.4.',
  'Release 11.2.3 is out, and 2.3.4 after it.',
  'Increment 1.2.3 by a patch.',
  'New in version 3.11.',
  'Changed in version 3.11: the default is 4.',
];

// A manual that mentions a "fast mode" in prose and writes a few names as code.
const codePassages = [
  'Enable fast mode if set to a true value.',
  'Set `Pickler.fast_mode` to trade memo checks for speed.',
  'The pickle_fast_mode_extra flag is reserved.',
  'Run `make --jobs=4`, or `-j 4` for short; `--jobs-max` caps it.',
];

describeDb('how many passages write each value a question writes out', (suite) => {
  let ws = '';

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'literal-counts');
    await seedDocs(suite.db, ws, embedder, [{ title: 'semver', passages }, { title: 'pickle', passages: codePassages }]);
  });

  const count = (question: string, limit = 100) => withWorkspace(suite.db, ws, (tx) => countLiteralPassages(tx, ws, EVERYTHING, literalsOf(question), limit));

  it('counts a value as written, with its signs, and never a longer value that begins or ends the same way', async () => {
    const counts = await count('What do ~1.2.3, 1.2.3 and 2.3 expand to?');
    expect(Object.fromEntries(counts)).toEqual({ '~1.2.3': 1, '1.2.3': 4, '2.3': 0 });
    // The rule the answerer quotes by, on the same passages.
    for (const literal of ['~1.2.3', '1.2.3', '2.3']) {
      expect(counts.get(literal)).toBe(passages.filter((p) => holdsLiteral(p, literal)).length);
    }
  });

  it('stops at the limit, the count from which a word is generic', async () => {
    expect(Object.fromEntries(await count('Is 1.2.3 valid in Python 3.11?', 2))).toEqual({ '1.2.3': 2, '3.11': 2 });
  });

  it('asks nothing when the question writes no value', async () => {
    expect((await count('What does tilde mean?')).size).toBe(0);
  });

  it('counts a name written as code whole, never its words in prose or a longer name holding it', async () => {
    const question = 'What do fast_mode, --jobs, -j and --turbo do?';
    const counts = await withWorkspace(suite.db, ws, (tx) => countLiteralPassages(tx, ws, EVERYTHING, codeNamesOf(question), 100, codeNameRule));
    expect(Object.fromEntries(counts)).toEqual({ fast_mode: 1, '--jobs': 1, '-j': 1, '--turbo': 0 });
    for (const name of codeNamesOf(question)) expect(counts.get(name)).toBe(codePassages.filter((p) => writesCodeName(p, name)).length);
  });
});
