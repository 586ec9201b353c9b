import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { asksAboutExistingName, asksForMeans, leadingTerm } from '../src/text/question-kind.ts';
import type { Passage } from '../src/types.ts';

// A module page as reference documentation lays it out: an overview that restates the question's
// words, then each function's signature on a line of its own with its description under it.
const overview: Passage = {
  n: 1,
  title: 'shlex — Simple lexical analysis',
  url: 'https://docs.example.com/shlex',
  heading: 'shlex — Simple lexical analysis',
  content:
    'The shlex class makes it easy to write lexical analyzers for simple syntaxes resembling that of the Unix shell. ' +
    'This will often be useful for parsing quoted strings and command arguments.\n\n' +
    'shlex.quote(s)\n\nReturn a shell-escaped version of the string s. The returned value is a string that can safely be used as one token in a shell command line.\n\n' +
    'Warning: The shlex module is only designed for Unix shells. Quoted command strings run on other shells can open up a command injection vulnerability.',
};
const reference: Passage = {
  n: 2,
  title: 'shlex — Simple lexical analysis',
  url: 'https://docs.example.com/shlex',
  heading: 'shlex — Simple lexical analysis',
  content:
    'shlex.split(s, comments=False, posix=True)\n\nSplit the string s using shell-like syntax. If comments is False, the parsing of comments in the given string is disabled.\n\n' +
    'shlex.join(split_command)\n\nConcatenate the tokens of the list split_command and return a string.',
};

describe('a question asking how to do something', () => {
  it('quotes the API whose description opens with the action asked for, with its signature, first', async () => {
    const answer = await createExtractiveAnswerer().answer({
      question: 'How do I split a command string into arguments the way a Unix shell would, respecting quotes?',
      passages: [overview, reference],
    });
    const quoted = answer.text.split('\n').slice(1);
    expect(quoted.slice(0, 2)).toEqual([
      '> shlex.split(s, comments=False, posix=True) [2]',
      '> Split the string s using shell-like syntax. If comments is False, the parsing of comments in the given string is disabled. [2]',
    ]);
  });

  it('quotes such a description from a lower passage though it shares only words common in the workspace', async () => {
    const bisect: Passage = { n: 1, title: 'bisect', url: null, heading: 'bisect — Array bisection algorithm', content: 'This module provides support for maintaining a list in sorted order without having to sort the list after each insertion.' };
    const aside: Passage = { n: 2, title: 'bisect', url: null, heading: 'Performance notes', content: 'Keep in mind that the search is dominated by the slow insertion step.' };
    const insort: Passage = { n: 3, title: 'bisect', url: null, heading: 'bisect — Array bisection algorithm', content: 'bisect.insort_left(a, x, lo=0, hi=len(a))\n\nInsert x in a in sorted order. This function first runs bisect_left() to locate an insertion point.' };
    // "insert", "list", "order" and "sort" are in a tenth of the workspace's passages; "keep" in five.
    const termStats = { documents: 1000, cap: 1000, frequencies: new Map([['insert', 100], ['list', 200], ['keep', 5], ['order', 100], ['without', 60], ['sort', 80], ['again', 50]]) };
    const answer = await createExtractiveAnswerer().answer({ question: 'How do I insert into a list while keeping it in order without sorting again?', passages: [bisect, aside, insort], termStats });
    expect(answer.text).toContain('> bisect.insort_left(a, x, lo=0, hi=len(a)) [3]\n> Insert x in a in sorted order.');
  });

  it('quotes the signature above a later paragraph of its description, which names what to call', async () => {
    const math: Passage = {
      n: 1,
      title: 'math — Mathematical functions',
      url: null,
      heading: 'Number-theoretic and representation functions',
      content:
        'math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)\n\nReturn `True` if the values a and b are close to each other and `False` otherwise.\n\n' +
        'Whether or not two floats are considered nearly equal is determined according to given absolute and relative tolerances.',
    };
    const question = 'How do I check that two floats are nearly equal?';
    const answer = await createExtractiveAnswerer().answer({ question, passages: [math] });
    expect(answer.text.split('\n').slice(1, 3)).toEqual([
      '> math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0) [1]',
      '> Whether or not two floats are considered nearly equal is determined according to given absolute and relative tolerances. [1]',
    ]);
    // Asked what it is rather than how to do it, the paragraph is quoted without it, as before.
    const what = await createExtractiveAnswerer().answer({ question: 'When are two floats considered nearly equal?', passages: [math] });
    expect(what.text.split('\n')[1]).toBe('> Whether or not two floats are considered nearly equal is determined according to given absolute and relative tolerances. [1]');
    // A line that only holds a code-like word is no API to name.
    const cited: Passage = { ...math, content: '(NIST SP-800-106, Randomized Hashing)\n\nSee also the page on tokens.\n\nWhether or not two floats are considered nearly equal is a matter of tolerance.' };
    const noted = await createExtractiveAnswerer().answer({ question, passages: [cited] });
    expect(noted.text).not.toContain('NIST');
  });

  it('tells a question about an existing name from one naming the asker’s own', () => {
    expect(asksAboutExistingName('What does the fast_mode argument of json.dumps do?')).toBe(true);
    expect(asksAboutExistingName('How do I set wal_compression_level to 9?')).toBe(true);
    expect(asksAboutExistingName('How do I add a --dry-run option with argparse?')).toBe(false);
    expect(asksAboutExistingName('What should the default of my order_total column be?')).toBe(false);
    expect(asksAboutExistingName('How do I index order_total descending?')).toBe(false);
  });

  it('is told from questions about what something is or says', () => {
    expect(asksForMeans('How do I split a command string into arguments?')).toBe(true);
    expect(asksForMeans('Is there a tidy way to silently ignore one specific exception?')).toBe(true);
    expect(asksForMeans('I need an unguessable string. What should I call?')).toBe(true);
    expect(asksForMeans('What is the maximum payload size of a NOTIFY message?')).toBe(false);
    expect(asksForMeans('Why does json.loads keep the last duplicate key?')).toBe(false);
    expect(leadingTerm('Split the string s using shell-like syntax.')).toBe('split');
    expect(leadingTerm('“Inserting” x keeps order.')).toBe('insert');
  });
});
