import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import type { Passage } from '../src/types.ts';
import { workspaceCounts } from './term-stats.ts';

// Two sentences of one passage for "Which level does a child logger get by default?": the first
// says the question's subject over and over and nothing else it asks; the second says it once and
// holds the word asked about ("level").
const passages: Passage[] = [
  {
    n: 1,
    title: 'API',
    url: null,
    heading: 'API › Loggers',
    content:
      "A child logger writes to its parent logger's stream, and the child of a child logger is a logger too. " +
      'A child logger takes its level from its parent.',
  },
];

// A logging library's docs: "child" on few passages; "level" and "default" on many, "logger" on more.
const termStats = workspaceCounts(1000, { child: 20, logger: 300, level: 200, default: 200 });

describe('a sentence that repeats the question\'s words', () => {
  it('does not outrank one holding another word the question asks about', async () => {
    const answer = await createExtractiveAnswerer({ maxSentences: 1 }).answer({ question: 'Which level does a child logger get by default?', passages, termStats });
    const quoted = answer.text.split('\n').slice(1);
    // It leads: no window opens on the repeating sentence and runs on into it.
    expect(quoted).toHaveLength(1);
    expect(quoted[0]).toMatch(/^> A child logger takes its level from its parent\./);
  });
});
