import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { workspaceCounts } from './term-stats.ts';
import type { Passage } from '../src/types.ts';

const answerer = createExtractiveAnswerer();

function passage(n: number, heading: string, content: string): Passage {
  return { n, title: heading.split(' › ')[0] ?? heading, url: null, heading, content };
}

// Python's library reference as Sphinx lays it out: a signature or an option on a line of its own,
// its description under it.
const decimal = passage(
  1,
  'decimal › Decimal objects',
  'quantize(exp, rounding=None, context=None)\n\n' +
    'Return a value equal to the first operand after rounding and having the exponent of the second operand.\n\n' +
    'Unlike other operations, if the length of the coefficient after the quantize operation would be greater than precision, then an `InvalidOperation` is signaled. ' +
    'This guarantees that, unless there is an error condition, the quantized exponent is always equal to that of the right-hand operand.\n\n' +
    'Also unlike other operations, quantize never signals Underflow, even if the result is subnormal and inexact.',
);
const faq = passage(2, 'decimal › Decimal FAQ', 'A. The `quantize()` method rounds to a fixed number of decimal places. If the `Inexact` trap is set, it is also useful for validation.');

const unittestOptions = passage(
  1,
  'unittest › Command-line options',
  'unittest supports these command-line options:\n\n' +
    '-f, --failfast\n\nStop the test run on the first error or failure.\n\n' +
    '-k\n\nOnly run test methods and classes that match the pattern or substring.\n\n' +
    '--locals\n\nShow local variables in tracebacks.',
);
const unittestHistory = passage(
  2,
  'unittest › Command-line options',
  'New in version 3.2: The command-line options `-b`, `-c` and `-f` were added.\n\nNew in version 3.7: The command-line option `-k`.',
);

describe('a label the question names as code', () => {
  it('is named by a call or a member of its signature’s name, though that name is a plain word', async () => {
    const { text } = await answerer.answer({ question: 'What does Decimal.quantize() do?', passages: [decimal, faq] });
    expect(text).toContain('> quantize(exp, rounding=None, context=None) [1]\n> Return a value equal to the first operand after rounding and having the exponent of the second operand. [1]');
  });

  it('is named by an option written out in the question', async () => {
    const { text } = await answerer.answer({ question: 'What does the -k option of the unittest command line do?', passages: [unittestHistory, unittestOptions] });
    expect(text).toContain('Only run test methods and classes that match the pattern or substring.');
    expect(text).not.toContain('Stop the test run on the first error');
  });
});

describe('a label’s opening sentences', () => {
  const isdigit = passage(
    1,
    'Built-in Types › String Methods',
    'str.isdigit()\n\n' +
      'Return `True` if all characters in the string are digits and there is at least one character, `False` otherwise. ' +
      'Digits include decimal characters and digits that need special handling, such as the compatibility superscript digits.\n\n' +
      'str.isidentifier()\n\nReturn `True` if the string is a valid identifier according to the language definition.',
  );

  it('come with a later sentence of that paragraph quoted under the label', async () => {
    const { text } = await answerer.answer({ question: 'How do I check whether a string is made only of digits?', passages: [isdigit] });
    expect(text).toContain('> str.isdigit() [1]\n> Return `True` if all characters in the string are digits and there is at least one character, `False` otherwise. Digits include');
  });
});

describe('an index in code', () => {
  const argv = passage(
    1,
    'sys — System-specific parameters and functions',
    'sys.argv\n\n' +
      'The list of command line arguments passed to a Python script. `argv[0]` is the script name (it is operating system dependent whether this is a full pathname or not).\n\n' +
      'See also `sys.orig_argv`.',
  );

  it('is quoted: the citation check leaves code alone', async () => {
    const { text } = await answerer.answer({ question: 'What is in sys.argv[0]?', passages: [argv] });
    expect(text).toContain('`argv[0]` is the script name');
  });

  it('is quoted outside code too, but a number in brackets after a space, which reads as a citation, keeps its sentence out', async () => {
    const bare = { ...argv, content: argv.content.replace('`argv[0]`', 'argv[0]') };
    expect((await answerer.answer({ question: 'What is in sys.argv[0]?', passages: [bare] })).text).toContain('argv[0] is the script name');
    const posing = { ...argv, content: argv.content.replace('`argv[0]` is the script name', 'the first is the script name [2]') };
    expect((await answerer.answer({ question: 'What is in sys.argv[0]?', passages: [posing] })).text).not.toContain('is the script name');
  });
});

describe('the quotation that leads', () => {
  // unittest's command-line page: the best-ranked passage only mentions the option in its
  // changelog; the next one defines it under its own label.
  const changelog: Passage = {
    n: 1,
    title: 'unittest',
    url: null,
    heading: 'unittest › Command-line interface',
    content: 'Changed in version 3.2: The unittest command-line options `-b`, `-c` and `-f` were added. New in version 3.7: The unittest command-line option `-k`.',
  };
  const options: Passage = {
    n: 2,
    title: 'unittest',
    url: null,
    heading: 'unittest › Command-line options',
    content: '-k\n\nOnly run test methods and classes that match the pattern or substring. This option may be used multiple times.',
  };

  it('is what defines the name the question writes, over a passing mention ranked above it', async () => {
    const { text } = await createExtractiveAnswerer().answer({ question: 'What does the -k option of the unittest command line do?', passages: [changelog, options] });
    const quoted = text.split('\n').filter((l) => l.startsWith('> '));
    expect(quoted[0]).toMatch(/\[2\]$/);
    expect(quoted.slice(0, 2).join('\n')).toContain('Only run test methods and classes that match the pattern or substring.');
  });
  it('is what defines the option the question writes though every word of it is common, over the best passage', async () => {
    // Git's manual: "git", "log", "follow" ("the following"), "file" and "work" are on most pages.
    const bisect: Passage = {
      n: 1,
      title: 'git-bisect(1)',
      url: null,
      heading: 'git-bisect(1) › Bisect log',
      content: 'After having marked revisions as good or bad, issue the following command to show the log of what has been done so far. Many files may follow.',
    };
    const logOptions: Passage = {
      n: 2,
      title: 'git-log(1)',
      url: null,
      heading: 'git-log(1) › OPTIONS',
      content: '--follow\n\nContinue listing the history of a file beyond renames (works only for a single file).\n\n--no-decorate\n\nPrint out the ref names of any commits that are shown.',
    };
    const termStats = workspaceCounts(1000, { git: 900, log: 300, follow: 200, file: 400, work: 150, many: 20, do: 500 }, 500);
    const { text } = await createExtractiveAnswerer().answer({ question: 'What does git log --follow do, and how many files does it work for?', passages: [bisect, logOptions], termStats });
    const quoted = text.split('\n').filter((l) => l.startsWith('> '));
    expect(quoted.slice(0, 2).join('\n')).toContain('Continue listing the history of a file beyond renames (works only for a single file).');
  });
});
