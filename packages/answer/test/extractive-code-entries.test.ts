import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { namedEntry } from '../src/text/code-entries.ts';
import type { Passage } from '../src/types.ts';

// A command's help text, as a README shows it: far too long to quote whole under its lead-in.
const HELP = [
  '```',
  '$ vers -h',
  '',
  'Usage: vers [options] <version> [<version> [...]]',
  '',
  'Options:',
  '-r --range <range>',
  '        Print versions that match the specified range.',
  '',
  '-i --increment [<level>]',
  '        Increment a version by the specified level.  Level can',
  '        be one of: major, minor or patch.  Default level is \'patch\'.',
  '',
  '-V, --verbose',
  '        Print every comparison made.',
  '',
  '--preid <identifier>',
  '        Identifier to be used to prefix prerelease increments.',
  '```',
].join('\n');

describe('the entry of a command’s help text that the question names', () => {
  it('is the line opening with the option and the lines indented under it, verbatim', () => {
    expect(namedEntry(HELP, ['-i'])).toBe(
      "```\n-i --increment [<level>]\n        Increment a version by the specified level.  Level can\n        be one of: major, minor or patch.  Default level is 'patch'.\n```",
    );
    // Its other spelling, after a comma, opens the same kind of entry.
    expect(namedEntry(HELP, ['--verbose'])).toBe('```\n-V, --verbose\n        Print every comparison made.\n```');
    // An option the block does not document, a longer one that begins the same way, or a name
    // that is not an option: nothing.
    expect(namedEntry(HELP, ['--turbo'])).toBeNull();
    expect(namedEntry(HELP, ['--pre'])).toBeNull();
    expect(namedEntry(HELP, ['increment_level'])).toBeNull();
  });

  it('is shown under the quotation that announces the block, which alone would say nothing', async () => {
    const readme: Passage = { n: 1, title: 'vers', url: null, heading: 'vers › Usage', content: `As a command-line utility:\n\n${HELP}\n\nThe program exits with 0 when a version is valid.` };
    const answer = await createExtractiveAnswerer().answer({ question: 'What is the default level for the -i option of the vers command line?', passages: [readme] });
    expect(answer.text).toContain("> As a command-line utility: [1]\n```\n-i --increment [<level>]\n");
    expect(answer.text).toContain("Default level is 'patch'.\n```");
    expect(answer.text).not.toContain('--range');
  });
});
