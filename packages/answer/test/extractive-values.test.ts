import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { asksForValue, statesDefault } from '../src/text/question-kind.ts';
import type { Passage } from '../src/types.ts';

// A configuration reference as the PostgreSQL manual lays it out: each setting's name and type on a
// line of its own, its description under it, and its default in a later sentence of that text.
const settings: Passage = {
  n: 1,
  title: '20.4. Resource Consumption',
  url: 'https://docs.example.com/runtime-config-resource',
  heading: '20.4. Resource Consumption',
  content:
    '`work_mem` (`integer`)\n\n' +
    'Sets the base maximum amount of memory to be used by a query operation (such as a sort or hash table) before writing to temporary disk files. ' +
    'If this value is specified without units, it is taken as kilobytes. The default value is four megabytes (`4MB`). ' +
    'Note that a complex query might perform several sort and hash operations at the same time.\n\n' +
    '`hash_mem_multiplier` (`floating point`)\n\n' +
    'Used to compute the maximum amount of memory that hash-based operations can use. The default value is 2.0.',
};

describe('a question asking for a value', () => {
  it("quotes the setting's default with the description that matched, from the same label's text", async () => {
    const answer = await createExtractiveAnswerer().answer({
      question: 'How much memory can one sort step of a query use before it spills to temporary files on disk, out of the box?',
      passages: [settings],
    });
    expect(answer.text).toContain('The default value is four megabytes (`4MB`). [1]');
    // Another setting's default is not the answer.
    expect(answer.text).not.toContain('The default value is 2.0.');
  });

  it('adds nothing for a question that asks for no value', async () => {
    const answer = await createExtractiveAnswerer().answer({
      question: 'What does work_mem limit when a query sorts before writing to temporary disk files?',
      passages: [settings],
    });
    expect(answer.text).not.toContain('four megabytes');
  });

  it('is told by the question and the sentence', () => {
    expect(asksForValue('How many tables can a query join before the genetic planner takes over?')).toBe(true);
    expect(asksForValue('What share of a table must change before autovacuum runs?')).toBe(true);
    expect(asksForValue('What is the default value of search_path?')).toBe(true);
    expect(asksForValue('Why did my table not shrink after VACUUM?')).toBe(false);
    expect(statesDefault('The default is 12.')).toBe(true);
    expect(statesDefault('Valid values are `try` (the default), `on`, and `off`.')).toBe(true);
    expect(statesDefault('This parameter defaults to `on`.')).toBe(true);
    expect(statesDefault('Sets the maximum number of workers.')).toBe(false);
  });
});

describe('a yes-or-no question', () => {
  it('quotes the sentence that answers it in its own words with a negation', async () => {
    const restrictions: Passage = {
      n: 1,
      title: '31.6. Restrictions',
      url: null,
      heading: '31.6. Restrictions',
      content:
        'Logical replication currently has the following restrictions or missing functionality.\n\n' +
        '- Sequence data is not replicated. The serial columns backed by sequences will of course be replicated as part of the table.\n' +
        '- Large objects are not replicated. There is no workaround for that.',
    };
    const answer = await createExtractiveAnswerer().answer({ question: 'Is sequence data replicated by logical replication?', passages: [restrictions] });
    expect(answer.text).toContain('Sequence data is not replicated.');
  });
});
