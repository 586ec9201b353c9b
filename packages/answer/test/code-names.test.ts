import { describe, expect, it } from 'vitest';
import { codeNamesOf, dottedNamesOf, letteredNamesOf, optionsOf, optionTermNames, writesCodeName } from '../src/text/code-names.ts';

describe('names a question writes as code', () => {
  it('finds snake_case names and command-line options, not hyphenated words', () => {
    expect(codeNamesOf('Does `Fast_Mode` or --jobs=4 or -k work with T-SQL on a read-only replica?')).toEqual(['fast_mode', '--jobs', '-k']);
    expect(codeNamesOf('How do I pause my program for two seconds?')).toEqual([]);
    expect(codeNamesOf('What does sys.max_recursion_guard default to?')).toEqual(['max_recursion_guard']);
  });

  it('finds qualified names whole, and no sentence’s full stop or version number', () => {
    expect(dottedNamesOf('What does http.postBuffer control, and does `pathlib.Path.home()` call os.path.expanduser?')).toEqual([
      'http.postbuffer',
      'pathlib.path.home',
      'os.path.expanduser',
    ]);
    expect(dottedNamesOf('It is fast. What changed in 3.11 and v1.2?')).toEqual([]);
    expect(dottedNamesOf('How do I pause my program for two seconds?')).toEqual([]);
  });

  it('finds names hyphenated beside a single letter, not hyphenated words', () => {
    expect(letteredNamesOf('Is T-SQL like PL/pgSQL, and is X-Forwarded-For read?')).toEqual(['t-sql', 'x-forwarded-for']);
    expect(letteredNamesOf('Can I send e-mail from a read-only Non-Blocking socket?')).toEqual([]);
  });

  it('holds a name written whole, with a qualifier before it, and nothing longer or spaced out', () => {
    expect(writesCodeName('Set `Pickler.fast_mode` first.', 'fast_mode')).toBe(true);
    expect(writesCodeName('Enable fast mode.', 'fast_mode')).toBe(false);
    expect(writesCodeName('The pickle_fast_mode flag.', 'fast_mode')).toBe(false);
    expect(writesCodeName('Run with --jobs=4.', '--jobs')).toBe(true);
    expect(writesCodeName('Run with --jobs-max.', '--jobs')).toBe(false);
  });
  it('reads a term line of one option’s spellings, and no line that says something of an option', () => {
    expect(optionsOf('What does git stash push --keep-index do, and is fast_mode on?')).toEqual(['--keep-index']);
    expect(optionTermNames('-k, --keep-index, --no-keep-index')).toEqual(['-k', '--keep-index', '--no-keep-index']);
    expect(optionTermNames('`--abbrev[=<n>]`')).toEqual(['--abbrev']);
    expect(optionTermNames('-S<string>')).toEqual(['-s']);
    expect(optionTermNames('--[no-]verify')).toEqual(['--verify']);
    expect(optionTermNames('--pathspec-from-file=<file>')).toEqual(['--pathspec-from-file']);
    expect(optionTermNames('-k keeps the index as it is.')).toEqual([]);
    expect(optionTermNames('keep-index')).toEqual([]);
  });
});
