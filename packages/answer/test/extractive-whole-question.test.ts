import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';
import { workspaceCounts } from './term-stats.ts';

// A reference page's description: what the statement does comes first, and the sentence that
// answers a yes/no question about it sits deep in the section.
const description: Passage = {
  n: 1,
  title: 'CREATE TRIGGER',
  url: null,
  heading: 'CREATE TRIGGER › Description',
  content: [
    'The CREATE TRIGGER statement is used to add triggers to the database schema.',
    'Triggers are database operations that are automatically performed when a specified database event occurs.',
    'Each trigger must specify that it will fire for one of the following operations: DELETE, INSERT, UPDATE.',
    'The trigger fires once for each row that is deleted, inserted, or updated.',
    'If the UPDATE OF syntax is used, then the trigger will only fire if a named column appears on the left-hand side of a SET term.',
    'Due to a historical oversight, columns named in the UPDATE OF clause do not actually have to exist in the table.',
    'Unrecognized column names are silently ignored.',
    'It would be more helpful if the engine would fail the CREATE TRIGGER statement for such names.',
    'However, as this problem was discovered many years later, we have resisted fixing the problem for fear of breaking legacy applications.',
    'At this time SQLite supports only FOR EACH ROW triggers, not FOR EACH STATEMENT triggers.',
    'Hence explicitly specifying FOR EACH ROW is optional.',
  ].join(' '),
};
const limits: Passage = {
  n: 2,
  title: 'Implementation Limits For SQLite',
  url: null,
  heading: 'Implementation Limits For SQLite › Maximum Depth Of Trigger Recursion',
  content:
    'SQLite limits the depth of recursion of triggers in order to prevent a statement involving recursive triggers from using an unbounded amount of memory. ' +
    'Beginning with version 3.6.18, recursive triggers were supported but had to be explicitly enabled using the PRAGMA recursive_triggers statement.',
};

// A manual's counts: "sqlite" on half its passages, "statement" and "support" on many (generic
// words), "trigger" on one in sixteen.
const termStats = workspaceCounts(1000, { sqlite: 500, support: 200, statement: 300, trigger: 60 });

describe('a sentence that holds every word of the question', () => {
  it('is quoted first wherever it sits in its section', async () => {
    const answer = await createExtractiveAnswerer().answer({ question: 'Does SQLite support FOR EACH STATEMENT triggers?', passages: [description, limits], termStats });
    const quoted = answer.text.split('\n').slice(1);
    expect(quoted[0]).toContain('At this time SQLite supports only FOR EACH ROW triggers, not FOR EACH STATEMENT triggers.');
  });
});
