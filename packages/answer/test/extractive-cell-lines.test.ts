import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { sentenceSpans } from '../src/text/sentences.ts';
import type { Passage } from '../src/types.ts';

// The PostgreSQL manual's table of math functions as extraction reads it: each cell on a line of
// its own (signature, description, example), none of them ending as a sentence does.
const content =
  '`degrees` ( `double precision` ) → `double precision`\n\nConverts radians to degrees\n\n`degrees(0.5)` → `28.64788975654116`\n\n' +
  '`div` ( `y` `numeric`, `x` `numeric` ) → `numeric`\n\nInteger quotient of `y`/`x` (truncates towards zero)\n\n`div(9, 4)` → `2`\n\n' +
  '`exp` ( `numeric` ) → `numeric`\n\nExponential (`e` raised to the given power)\n\n`exp(1.0)` → `2.71828182845`';
const table: Passage = { n: 1, title: '9.3. Mathematical Functions and Operators', url: null, heading: '9.3. Mathematical Functions and Operators', content };

describe('cells of a table read one per line', () => {
  it('are each quotable, not a chain of labels', () => {
    const quotable = sentenceSpans(content).map((s) => s.text);
    expect(quotable).toContain('Integer quotient of `y`/`x` (truncates towards zero)');
    expect(quotable).toContain('`div` ( `y` `numeric`, `x` `numeric` ) → `numeric`');
  });

  it('answer what a function returns with its description', async () => {
    const { text } = await createExtractiveAnswerer().answer({ question: 'What does div(y, x) return?', passages: [table] });
    expect(text).toContain('Integer quotient of `y`/`x` (truncates towards zero)');
  });

  it('leave a signature above a described paragraph its label', () => {
    const described = '`div` ( `y` `numeric`, `x` `numeric` ) → `numeric`\n\nReturns the integer quotient of `y`/`x`, truncating towards zero.';
    const [span] = sentenceSpans(described);
    expect(span?.label?.text).toBe('`div` ( `y` `numeric`, `x` `numeric` ) → `numeric`');
  });
});
