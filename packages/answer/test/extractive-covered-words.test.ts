import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';
import { workspaceCounts } from './term-stats.ts';

// A manual's passages as retrieval ranks them for "Does a serial column get a UNIQUE constraint
// automatically?": the best one is about unique constraints in general; the one that answers is
// the serial type's, whose sentence repeats most of what the first quotation already said.
const passages: Passage[] = [
  {
    n: 1,
    title: 'CREATE TABLE',
    url: null,
    heading: 'CREATE TABLE › Notes',
    content:
      'PostgreSQL automatically creates an index for each unique constraint and primary key constraint to enforce uniqueness. ' +
      'Thus, it is not necessary to create an index explicitly for primary key columns. ' +
      'Unique constraints and primary keys are not inherited in the current implementation.',
  },
  {
    n: 2,
    title: '11.6. Unique Indexes',
    url: null,
    heading: '11.6. Unique Indexes',
    content:
      "Indexes can also be used to enforce uniqueness of a column's value, or the uniqueness of the combined values of more than one column. " +
      'PostgreSQL automatically creates a unique index when a unique constraint or primary key is defined for a table.',
  },
  {
    n: 3,
    title: '8.1. Numeric Types',
    url: null,
    heading: '8.1. Numeric Types › 8.1.4. Serial Types',
    content:
      'In the current implementation, specifying a `serial` column creates a sequence and sets the default of the column to its next value. ' +
      'Thus, we have created an integer column and arranged for its default values to be assigned from a sequence generator. ' +
      'A `NOT NULL` constraint is applied to ensure that a null value cannot be inserted. ' +
      '(In most cases you would also want to attach a `UNIQUE` or `PRIMARY KEY` constraint to prevent duplicate values from being inserted by accident, but this is not automatic.)',
  },
];

// The manual's counts: "column", "unique", "constraint" and "automatically" on many passages
// (generic), "serial" on a few.
const termStats = workspaceCounts(1600, { column: 400, unique: 120, constraint: 150, automatically: 130, serial: 40 });

describe('a sentence whose words the answer already quoted', () => {
  it('is still quoted when it adds the question\'s own subject to them', async () => {
    // Two quotations: the first is the best passage's general rule; the second should be the
    // serial type's sentence, which repeats three of the first one's words and adds "serial",
    // rather than the type's sentence that holds only "serial" and "column".
    const answer = await createExtractiveAnswerer({ maxSentences: 2 }).answer({ question: 'Does a serial column get a UNIQUE constraint automatically?', passages, termStats });
    const quoted = answer.text.split('\n').slice(1);
    expect(quoted[0]).toContain('PostgreSQL automatically creates an index for each unique constraint');
    expect(quoted[1]).toContain('but this is not automatic.');
  });
});
