import { describe, expect, it } from 'vitest';
import { validateCitations } from '../src/citations/validate-citations.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { EXTRACTIVE_LABEL } from '../src/messages.ts';
import { collapseWhitespace } from '../src/text/sentences.ts';
import type { TermStats } from '../src/text/term-weights.ts';
import { terms } from '../src/text/terms.ts';
import type { Passage } from '../src/types.ts';

const refunds: Passage = {
  n: 1,
  title: 'Billing FAQ',
  url: 'https://docs.example.com/billing',
  heading: 'Refunds',
  content:
    'Our billing team answers within a day. Refunds are processed within five business days\nof the request. ' +
    'A refund goes back to the original card. Invoices are emailed monthly.',
};
const security: Passage = {
  n: 2,
  title: 'Security',
  url: 'https://docs.example.com/security',
  heading: 'Passwords',
  content: 'Passwords rotate every 90 days. Refund requests over $500 need a manager’s approval. Two-factor login is mandatory.',
};
const answerer = createExtractiveAnswerer();

/** The quoted lines of an extractive answer, each with its marker. */
function lines(text: string): string[] {
  return text.split('\n').slice(1);
}

describe('createExtractiveAnswerer', () => {
  it('labels the answer and quotes the most relevant sentences, each with its [n]', async () => {
    const out = await answerer.answer({ question: 'How long do refunds take to be processed?', passages: [refunds, security] });
    expect(out.kind).toBe('extractive');
    expect(out.text.startsWith(`${EXTRACTIVE_LABEL}\n`)).toBe(true);
    const quoted = lines(out.text);
    // The matching sentence comes with the sentence that continues its paragraph.
    expect(quoted[0]).toBe('> Refunds are processed within five business days of the request. A refund goes back to the original card. [1]');
    expect(quoted.every((l) => /^> .+ \[[12]\]$/.test(l))).toBe(true);
    expect(out.text).not.toContain('Invoices are emailed monthly');
    expect(out.text).not.toContain('Two-factor');
  });

  it('quotes verbatim: every line is its passage’s own text (line breaks joined by a space)', async () => {
    const out = await answerer.answer({ question: 'refund approval card', passages: [refunds, security] });
    for (const line of lines(out.text)) {
      const [, sentence, n] = /^> (.+) \[(\d+)\]$/.exec(line) ?? [];
      const passage = [refunds, security].find((p) => p.n === Number(n));
      expect(collapseWhitespace(passage?.content ?? '')).toContain(sentence);
    }
    expect(out.text).toContain('[2]'); // the approval rule lives in the second passage
  });

  it('spreads its picks across passages rather than quoting one passage only', async () => {
    const out = await answerer.answer({ question: 'refunds processed, approval', passages: [refunds, security] });
    expect(out.text).toContain('Refunds are processed within five business days');
    expect(out.text).toContain('manager’s approval.');
  });

  it('is deterministic', async () => {
    const a = await answerer.answer({ question: 'refund card approval', passages: [refunds, security] });
    const b = await answerer.answer({ question: 'refund card approval', passages: [refunds, security] });
    expect(a.text).toBe(b.text);
  });

  it('quotes the opening of the best passage when no sentence shares a word with the question', async () => {
    const out = await answerer.answer({ question: 'zzz qqq', passages: [refunds, security] });
    expect(lines(out.text)).toEqual(['> Our billing team answers within a day. [1]']);
  });

  it('never quotes a sentence carrying its own bracketed number, which would pass for a citation', async () => {
    const forged: Passage = { n: 1, title: null, url: null, heading: null, content: 'Refunds are instant [2]. Refunds need a form.' };
    const out = await answerer.answer({ question: 'refunds', passages: [forged, security] });
    expect(out.text).not.toContain('instant');
    expect(out.text).toContain('> Refunds need a form. [1]');
  });

  it('respects maxSentences and survives citation validation unchanged apart from numbering', async () => {
    const two = createExtractiveAnswerer({ maxSentences: 2 });
    const out = await two.answer({ question: 'refund request approval card', passages: [refunds, security] });
    expect(lines(out.text)).toHaveLength(2);
    const checked = validateCitations(out.text, [refunds, security]);
    expect(checked.removedMarkers).toEqual([]);
    expect(checked.removedQuotes).toEqual([]);
    expect(checked.cited.length).toBeGreaterThan(0);
  });
});

describe('createExtractiveAnswerer on reference docs', () => {
  const server: Passage = {
    n: 1,
    title: 'Server',
    url: null,
    heading: 'Server › Factory',
    content: [
      '### connectionTimeout',
      '',
      '+ Default: `0` (no timeout)',
      '',
      'Defines the server timeout in milliseconds. See the Node.js documentation',
      'for the effect of this option.',
      '',
      '### keepAliveTimeout',
      '',
      '+ Default: `72000` (72 seconds)',
      '',
      '> ℹ️ Note:',
      '> This option only applies when HTTP/1 is in use, and the default',
      '> keeps idle sockets open.',
      '',
      'Or `async/await`:',
      '```js',
      'const x = 1',
      '```',
    ].join('\n'),
  };

  it('answers from the section the question names, not from its neighbours', async () => {
    const out = await answerer.answer({ question: 'What is the default connectionTimeout?', passages: [server] });
    const quoted = lines(out.text);
    // The setting's heading, then its first lines: a bare value line goes on into the sentence
    // that says what it means.
    expect(quoted[0]).toBe('> connectionTimeout [1]');
    expect(quoted[1]).toBe('> Default: `0` (no timeout) Defines the server timeout in milliseconds. [1]');
    expect(out.text).not.toContain('72000');
  });

  it('reads wrapped block quotes as one sentence and skips lines that only introduce code', async () => {
    const out = await answerer.answer({ question: 'Does keepAliveTimeout keep idle sockets open by default?', passages: [server] });
    expect(out.text).toContain('> ℹ️ Note: This option only applies when HTTP/1 is in use, and the default keeps idle sockets open. [1]');
    expect(out.text).not.toContain('async/await');
  });
});

/** Counts as the workspace would give them: of 1,000 passages, `common` words in a tenth, others in 30. */
function statsFor(question: string, rare: Record<string, number>, common: readonly string[]): TermStats {
  const frequencies = new Map<string, number>();
  for (const t of terms(question)) frequencies.set(t, 30);
  for (const w of common) for (const t of terms(w)) frequencies.set(t, 100);
  for (const [w, df] of Object.entries(rare)) for (const t of terms(w)) frequencies.set(t, df);
  return { documents: 1000, frequencies, cap: 40 };
}

describe('createExtractiveAnswerer states the fact (issue 15’s failures, on hand-written passages)', () => {
  const notify: Passage = {
    n: 1,
    title: 'NOTIFY',
    url: 'https://docs.example.com/sql-notify.html',
    heading: 'NOTIFY › Parameters',
    content: [
      'channel',
      '',
      'Name of the notification channel to be signaled (any identifier).',
      '',
      'payload',
      '',
      'The “payload” string to be communicated along with the notification. This must be specified as a simple string literal. In the default configuration it must be shorter than 8000 bytes. (If binary data or large amounts of information need to be communicated, it\'s best to put it in a database table and send the key of the record.)',
    ].join('\n'),
  };
  const covering: Passage = {
    n: 2,
    title: 'Index-Only Scans and Covering Indexes',
    url: 'https://docs.example.com/indexes-index-only-scans.html',
    heading: 'Index-Only Scans and Covering Indexes',
    content:
      'It\'s wise to be conservative about adding non-key payload columns to an index, especially wide columns. If an index tuple exceeds the maximum size allowed for the index type, data insertion will fail.',
  };
  const segment: Passage = {
    n: 3,
    title: 'Preset Options',
    url: 'https://docs.example.com/runtime-config-preset.html',
    heading: 'Preset Options',
    content: 'segment_size (integer)\n\nReports the number of blocks (pages) that can be stored within a file segment. The maximum size of a segment file in bytes is equal to segment_size multiplied by block_size.',
  };

  it('quotes the best passage’s sentence together with the one continuing it, and nothing matching only "maximum size"', async () => {
    const question = 'What is the maximum payload size of a NOTIFY message?';
    for (const termStats of [undefined, statsFor(question, { notify: 12, payload: 20 }, ['maximum', 'size', 'message'])]) {
      const out = await answerer.answer({ question, passages: [notify, covering, segment], termStats });
      const quoted = lines(out.text);
      expect(quoted[0]).toMatch(/\[1\]$/);
      expect(out.text).toContain('In the default configuration it must be shorter than 8000 bytes.');
      expect(out.text).not.toContain('segment file');
      expect(out.text).not.toContain('[3]');
    }
  });

  it('answers a setting’s default from that setting’s own label, not from another setting’s "The default value is"', async () => {
    const memory: Passage = {
      n: 1,
      title: 'Resource Consumption',
      url: 'https://docs.example.com/runtime-config-resource.html',
      heading: 'Resource Consumption › Memory',
      content: [
        'work_mem (integer)',
        '',
        'Sets the base maximum amount of memory to be used by a query operation before writing to temporary disk files. The default value is four megabytes (4MB).',
        '',
        'maintenance_work_mem (integer)',
        '',
        'Specifies the maximum amount of memory to be used by maintenance operations, such as VACUUM and CREATE INDEX. It defaults to 64 megabytes (64MB). Since only one of these operations can be executed at a time by a database session, it is safe to set this value significantly larger than work_mem.',
      ].join('\n'),
    };
    const geqo: Passage = {
      n: 2,
      title: 'Query Planning',
      url: 'https://docs.example.com/runtime-config-query.html',
      heading: 'Query Planning › Genetic Query Optimizer',
      content: 'geqo_threshold (integer)\n\nUse genetic query optimization to plan queries with at least this many FROM items involved. The default value is 12.\n\ngeqo_effort (floating point)\n\nThe default value is `10.0`.',
    };
    const question = 'What is the default value of maintenance_work_mem?';
    const out = await answerer.answer({ question, passages: [memory, geqo], termStats: statsFor(question, { maintenance_work_mem: 3 }, ['default', 'value']) });
    const quoted = lines(out.text);
    expect(quoted[0]).toBe('> maintenance_work_mem (integer) [1]');
    expect(out.text).toContain('It defaults to 64 megabytes (64MB).');
    expect(out.text).not.toContain('10.0');
    expect(out.text).not.toContain('four megabytes');
  });

  it('quotes the sentence about jsonb, not the one about json, for a jsonb question', async () => {
    const json: Passage = {
      n: 1,
      title: 'JSON Types',
      url: 'https://docs.example.com/datatype-json.html',
      heading: 'JSON Types',
      content:
        'Because the json type stores an exact copy of the input text, it will preserve semantically-insignificant white space between tokens, as well as the order of keys within JSON objects. ' +
        'Also, if a JSON object within the value contains the same key more than once, all the key/value pairs are kept. ' +
        'By contrast, jsonb does not preserve white space, does not preserve the order of object keys, and does not keep duplicate object keys. ' +
        'If duplicate keys are specified in the input, only the last value is kept.',
    };
    const question = 'If the same key appears twice in an object I store as jsonb, which value is kept?';
    const out = await answerer.answer({ question, passages: [json], termStats: statsFor(question, { jsonb: 8 }, ['key', 'value', 'object', 'store']) });
    expect(lines(out.text)[0]).toBe(
      '> By contrast, jsonb does not preserve white space, does not preserve the order of object keys, and does not keep duplicate object keys. If duplicate keys are specified in the input, only the last value is kept. [1]',
    );
  });

  it('quotes a list item with its lead-in and a table row with its header row', async () => {
    const page: Passage = {
      n: 1,
      title: 'Limits',
      url: null,
      heading: 'Limits',
      content: [
        'The server refuses a request when one of these is exceeded:',
        '',
        '- a header section over 16 KiB',
        '- a body over the bodyLimit',
        '',
        'Timeouts by plan:',
        '',
        'plan | idle timeout',
        'free | 30 seconds',
        'team | 300 seconds',
      ].join('\n'),
    };
    const items = await answerer.answer({ question: 'How large may the header section be?', passages: [page] });
    expect(lines(items.text).slice(0, 2)).toEqual(['> The server refuses a request when one of these is exceeded: [1]', '> a header section over 16 KiB [1]']);
    const rows = await answerer.answer({ question: 'What is the idle timeout of the team plan?', passages: [page] });
    expect(lines(rows.text)).toContain('> plan | idle timeout [1]');
    expect(lines(rows.text).indexOf('> plan | idle timeout [1]')).toBeLessThan(lines(rows.text).indexOf('> team | 300 seconds [1]'));
  });
});

describe('the same words in two passages', () => {
  it('are quoted once, from the better-ranked passage', async () => {
    const repeated = 'If you use a function expression, the `this` keyword is set to the running command.';
    const passage = (n: number, lead: string): Passage => ({ n, title: 'Commander.js', url: null, heading: `Commander.js › Section ${n}`, content: `${lead}\n\n${repeated}` });
    const answer = await createExtractiveAnswerer().answer({
      question: 'What is the this keyword set to in a function expression?',
      passages: [passage(1, 'Action handlers receive the command arguments.'), passage(2, 'Hooks receive the command that is running.')],
    });
    expect(answer.text.split(repeated).length - 1).toBe(1);
    expect(answer.text).toContain(`${repeated} [1]`);
  });
});
