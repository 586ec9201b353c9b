import { describe, expect, it } from 'vitest';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { candidatesOf, scoreCandidates } from '../src/extractive-candidates.ts';
import { asksForValue, statesDefault } from '../src/text/question-kind.ts';
import { termWeights } from '../src/text/term-weights.ts';
import { termSet } from '../src/text/terms.ts';
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

  it("quotes the default from the next passage of the page when the setting's text runs on into it", async () => {
    const tail = 'If one of the list items is the special name `$user`, the schema named by the current user is substituted.';
    const first: Passage = {
      n: 1,
      title: '20.11. Client Connection Defaults',
      url: null,
      heading: '20.11. Client Connection Defaults › Statement Behavior',
      content: `\`search_path\` (\`string\`)\n\nThis variable specifies the order in which schemas are searched when an object is referenced by a simple name.\n\n${tail}`,
    };
    const next = (rest: string): Passage => ({ ...first, n: 2, content: `${tail}\n\nThe system catalog schema is always searched.\n\n${rest}` });
    // Sentences that name search_path beside "default value" outscore the one that states it.
    const elsewhere: Passage = {
      n: 3,
      title: 'SET',
      url: null,
      heading: 'SET › Notes',
      content: 'A function’s `search_path` default value comes from the session that calls it. The default value a `SET search_path` gives lasts until the transaction ends. Every `search_path` default value is a list.',
    };
    const question = 'What is the default value of search_path?';
    const answer = await createExtractiveAnswerer({ maxSentences: 3 }).answer({ question, passages: [first, next('The default value for this parameter is `"$user", public`.'), elsewhere] });
    expect(answer.text).toContain('> The default value for this parameter is `"$user", public`. [2]');
    // Once another setting begins in that passage, what follows is that setting's.
    const other = await createExtractiveAnswerer({ maxSentences: 3 }).answer({
      question,
      passages: [first, next('`row_security` (`boolean`)\n\nThis variable controls whether to raise an error. The default is `on`.'), elsewhere],
    });
    expect(other.text).not.toContain('The default is `on`.');
  });

  it('quotes a one-digit default first, before the next option\'s longer one', async () => {
    // Markdown option references (pino's, fastify's) give each option a heading and open its text
    // with its default. A one-digit value is too short to be a term, and the line once counted as
    // nothing but the question's own word "default".
    const option = (n: number, name: string, content: string): Passage => ({ n, title: 'API', url: null, heading: `API › options (Object) › ${name} (Number)`, content });
    const answer = await createExtractiveAnswerer().answer({
      question: 'What does the depthLimit option default to?',
      passages: [
        option(1, 'depthLimit', "Default: `5`\n\nMaximum nesting depth used by Pino's fallback serializer."),
        option(2, 'edgeLimit', "Default: `100`\n\nMaximum number of properties/elements per object or array used by Pino's fallback serializer."),
      ],
    });
    expect(answer.text.split('\n')[1]).toBe("> Default: `5` Maximum nesting depth used by Pino's fallback serializer. [1]");
  });

  it("quotes the value line a section opens with above its description's first sentence", async () => {
    const option = (n: number, name: string, content: string): Passage => ({ n, title: 'API', url: null, heading: `API › options (Object) › ${name} (Number)`, content });
    const answer = await createExtractiveAnswerer().answer({
      question: "How deeply nested can an object be before pino's fallback serializer stops going further?",
      passages: [option(1, 'depthLimit', "Default: `5`\n\nMaximum nesting depth used by Pino's fallback serializer.")],
    });
    expect(answer.text).toContain("> Default: `5` Maximum nesting depth used by Pino's fallback serializer. [1]");
  });

  it('counts a one-letter flag written as code as news, though too short to be a term', () => {
    // Every other word of "The default option flags are `-V` and `--version`." is the question's own.
    const version: Passage = {
      n: 1,
      title: 'Commander.js',
      url: null,
      heading: 'Commander.js › Options › Version option',
      content: 'The optional `.version()` method adds handling for displaying the command version. The default option flags are `-V` and `--version`.',
    };
    const question = 'What are the default flags of the version option?';
    const wanted = termSet(question);
    const all = candidatesOf([version]);
    scoreCandidates(all, question, wanted, termWeights(wanted, all.map((c) => c.span.text), [version.content]));
    expect(all.find((c) => c.span.text.includes('`-V`'))?.score).toBeGreaterThan(0);
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

// undici's RetryHandler reference: each option a list item, its default at the end of the item.
const retryOptions: Passage = {
  n: 1,
  title: 'Class: RetryHandler',
  url: null,
  heading: 'Class: RetryHandler › RetryOptions',
  content: [
    '- **maxTimeout** `number` (optional) - Maximum number of milliseconds to wait before retrying. Default: `30000` (30 seconds)',
    '- **methods** `string[]` (optional) - Array of HTTP methods to retry. Default: `[\'GET\', \'PUT\', \'HEAD\', \'OPTIONS\', \'DELETE\']`',
    '- **statusCodes** `number[]` (optional) - Array of HTTP status codes to retry. Default: `[429, 500, 502, 503, 504]`',
  ].join('\n'),
};

describe('a default at the end of a list item', () => {
  it('is quoted with the start of its item, which names whose default it is', async () => {
    const { text } = await createExtractiveAnswerer().answer({ question: 'Which status codes are retried by default?', passages: [retryOptions] });
    expect(text).toContain('> **statusCodes** `number[]` (optional) - Array of HTTP status codes to retry. Default: `[429, 500, 502, 503, 504]` [1]');
    expect(text).not.toMatch(/^> Default: /m);
  });
});
