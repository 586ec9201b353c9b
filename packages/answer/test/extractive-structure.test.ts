import { describe, expect, it } from 'vitest';
import { validateCitations } from '../src/citations/validate-citations.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { sentenceSpans } from '../src/text/sentences.ts';
import type { TermStats } from '../src/text/term-weights.ts';
import { terms } from '../src/text/terms.ts';
import type { Passage } from '../src/types.ts';

// Each case is a class of failure seen on the tune halves of the eval sets, rebuilt from a small
// hand-written passage: the answer is on the page, in a place the page's own structure points to.

const answerer = createExtractiveAnswerer();

function lines(text: string): string[] {
  return text.split('\n').slice(1);
}

/** Workspace counts: the question's words in 30 of 1,000 passages, `common` ones in 100 (generic). */
function statsFor(question: string, common: readonly string[] = []): TermStats {
  const frequencies = new Map<string, number>();
  for (const t of terms(question)) frequencies.set(t, 30);
  for (const w of common) for (const t of terms(w)) frequencies.set(t, 100);
  return { documents: 1000, frequencies, cap: 40 };
}

async function answer(question: string, passages: Passage[], common: readonly string[] = []): Promise<string> {
  return (await answerer.answer({ question, passages, termStats: statsFor(question, common) })).text;
}

describe('tables and lists', () => {
  it('keeps the first row of a passage cut from the middle of a pipe table as a fact, not a header', async () => {
    const errors: Passage = {
      n: 1,
      title: 'Errors',
      url: null,
      heading: 'Errors › Error codes',
      content: [
        '| ERR_BODY_TOO_LARGE | The request body is larger than the provided limit. | Increase bodyLimit. |',
        '| ERR_BAD_MEDIA_TYPE | The received media type is not supported. | Use another content type. |',
      ].join('\n'),
    };
    const out = await answer('I get ERR_BODY_TOO_LARGE on a POST. What does it mean?', [errors]);
    expect(lines(out)[0]).toBe('> | ERR_BODY_TOO_LARGE | The request body is larger than the provided limit. | Increase bodyLimit. | [1]');
  });

  it('takes the row above a pipe table’s rule as its header, and the first data row as a row', () => {
    const spans = sentenceSpans('| Code | Meaning |\n| --- | --- |\n| E1 | Too large. |\n| E2 | Too slow. |');
    expect(spans.map((s) => [s.text, s.lead?.text ?? null])).toEqual([
      ['| Code | Meaning |', null],
      ['| E1 | Too large. |', '| Code | Meaning |'],
      ['| E2 | Too slow. |', '| Code | Meaning |'],
    ]);
  });

  it('quotes a lead-in that announces a list with its items, each on its own line', async () => {
    const copy: Passage = {
      n: 1,
      title: 'copy — Shallow and deep copy operations',
      url: null,
      heading: 'copy — Shallow and deep copy operations',
      content: [
        'copy.copy(x)¶',
        '',
        'Return a shallow copy of x.',
        '',
        'copy.deepcopy(x[, memo])¶',
        '',
        'Return a deep copy of x.',
        '',
        'The difference between shallow and deep copying is only relevant for compound objects (objects that contain other objects, like lists or class instances):',
        '',
        '- A shallow copy constructs a new compound object and then inserts references into it to the objects found in the original.',
        '- A deep copy constructs a new compound object and then, recursively, inserts copies into it of the objects found in the original.',
      ].join('\n'),
    };
    const index: Passage = { n: 2, title: 'Module index', url: null, heading: 'Module index', content: 'Module `copy`\n\nShallow and deep object copying.' };
    const out = await answer('What is the difference between a shallow copy and a deep copy in the copy module?', [copy, index]);
    const quoted = lines(out);
    const lead = quoted.findIndex((l) => l.startsWith('> The difference between shallow and deep copying'));
    expect(lead).toBeGreaterThanOrEqual(0);
    expect(quoted[lead + 1]).toMatch(/^> A shallow copy constructs/);
    expect(quoted[lead + 2]).toMatch(/^> A deep copy constructs a new compound object and then, recursively,/);
  });

  it('quotes the list under the heading the question names item by item: its values', async () => {
    const trustProxy: Passage = {
      n: 1,
      title: 'Server',
      url: null,
      heading: 'Server › Factory › trustProxy',
      content: [
        '+ Default: `false`',
        '+ `true/false`: Trust all proxies (`true`) or do not trust any proxies (`false`).',
        '+ `string`: Trust only given IP/CIDR (e.g. `\'127.0.0.1\'`).',
        '+ `Array<string>`: Trust only given IP/CIDR list.',
        '',
        'By enabling the `trustProxy` option, Fastify will know that it is sitting behind a proxy.',
      ].join('\n'),
    };
    const request: Passage = {
      n: 2,
      title: 'Request',
      url: null,
      heading: 'Request',
      content: 'The ip value is taken from the socket (or from `X-Forwarded-For` when `trustProxy` is enabled).',
    };
    const out = await answer('What does the trustProxy option do, and which values does it accept?', [trustProxy, request], ['option', 'value']);
    const quoted = lines(out);
    expect(quoted).toContain('> `true/false`: Trust all proxies (`true`) or do not trust any proxies (`false`). [1]');
    expect(quoted).toContain('> `string`: Trust only given IP/CIDR (e.g. `\'127.0.0.1\'`). [1]');
  });
});

describe('code', () => {
  const dataclasses: Passage = {
    n: 1,
    title: 'dataclasses',
    url: null,
    heading: 'dataclasses › Mutable default values',
    content: [
      'Using default factory functions is a way to create new instances of mutable types as default values for fields:',
      '',
      '```',
      '@dataclass',
      'class D:',
      '    x: list = field(default_factory=list)',
      '```',
      '',
      'Changed in version 3.11: unhashable objects are now not allowed as default values.',
    ].join('\n'),
  };

  it('shows the short code block a quoted sentence announces, as the page shows it, and never runs code into a quoted line', async () => {
    const out = await answer('How do I create new instances of mutable types as default values for fields?', [dataclasses]);
    expect(out).toContain('> Using default factory functions is a way to create new instances of mutable types as default values for fields: [1]\n```\n@dataclass\nclass D:\n    x: list = field(default_factory=list)\n```');
    for (const line of lines(out)) if (line.startsWith('> ')) expect(line).not.toContain('```');
    const checked = validateCitations(out, [dataclasses], { allowLinksInPassages: true });
    expect(checked.text).toContain('    x: list = field(default_factory=list)\n```');
    expect(checked.cited).toEqual([{ n: 1, passageN: 1 }]);
  });
});

describe('sections and definitions', () => {
  it('answers from the sentences that define the setting the question names, over a passing mention elsewhere', async () => {
    const close: Passage = {
      n: 2,
      title: 'Server',
      url: null,
      heading: 'Server › close',
      content: 'When `fastify.close()` is called, connections are drained based on the `forceCloseConnections` option, and then the server stops.',
    };
    const setting: Passage = {
      n: 1,
      title: 'Server',
      url: null,
      heading: 'Server › Factory › forceCloseConnections',
      content: [
        '+ Default: `"idle"` if the HTTP server allows it, `false` otherwise',
        '',
        'When set to `true`, upon close the server will iterate the current persistent connections and destroy their sockets.',
      ].join('\n'),
    };
    const out = await answer('What does forceCloseConnections do?', [setting, close]);
    const quoted = lines(out);
    expect(quoted[0]).toMatch(/\[1\]$/);
    expect(quoted.slice(0, 2).join('\n')).toContain('destroy their sockets. [1]');
  });

  it('answers a definition that restates the question with the label it defines', async () => {
    const pathlib: Passage = {
      n: 1,
      title: 'pathlib',
      url: null,
      heading: 'pathlib › Methods and properties',
      content: [
        'PurePath.suffix¶',
        '',
        'The file extension of the final component, if any:',
        '',
        'PurePath.stem¶',
        '',
        'The final path component, without its suffix:',
        '',
        'PurePath.as_posix()¶',
        '',
        'Return a string representation of the path with forward slashes.',
      ].join('\n'),
    };
    const out = await answer('Which PurePath property gives the final path component without its suffix?', [pathlib]);
    expect(lines(out).slice(0, 2)).toEqual(['> PurePath.stem¶ [1]', '> The final path component, without its suffix: [1]']);
  });

  it('does not take a question naming a module for one naming the class under it', async () => {
    const server: Passage = {
      n: 1,
      title: 'http.server — HTTP servers',
      url: null,
      heading: 'http.server — HTTP servers',
      content: [
        'This module defines classes for implementing HTTP servers.',
        '',
        'Warning',
        '',
        '`http.server` is not recommended for production. It only implements basic security checks.',
        '',
        'class http.server.HTTPServer(server_address, RequestHandlerClass)¶',
        '',
        'This class builds on the `TCPServer` class by storing the server address as instance variables named `server_name` and `server_port`.',
        'The server is accessible by the handler, typically through the handler’s `server` instance variable.',
      ].join('\n'),
    };
    const out = await answer('Is http.server recommended for production?', [server]);
    expect(out).toContain('`http.server` is not recommended for production.');
  });

  it('quotes with the best sentence the next paragraph that goes on about the same thing', async () => {
    const lists: Passage = {
      n: 1,
      title: 'Data Structures',
      url: null,
      heading: 'Data Structures › Using Lists as Queues',
      content: [
        'It is also possible to use a list as a queue, where the first element added is the first element retrieved (“first-in, first-out”); however, lists are not efficient for this purpose. While appends and pops from the end of list are fast, doing inserts or pops from the beginning of a list is slow.',
        '',
        'To implement a queue, use `collections.deque` which was designed to have fast appends and pops from both ends. For example:',
        '',
        'Sets are unordered collections with no duplicate elements.',
      ].join('\n'),
    };
    const out = await answer('Why is a list slow when the first element added is the first retrieved, and what should I use instead?', [lists]);
    expect(lines(out)[0]).toContain('To implement a queue, use `collections.deque`');
    expect(out).not.toContain('Sets are unordered');
  });
});

describe('labels and reading order', () => {
  it('quotes a label only with the paragraph right under it, unless the question names it', async () => {
    const copy: Passage = {
      n: 1,
      title: 'copy — Shallow and deep copy operations',
      url: null,
      heading: 'copy — Shallow and deep copy operations',
      content: [
        'exception copy.Error¶',
        '',
        'Raised for module specific errors.',
        '',
        'The difference between shallow and deep copying is only relevant for compound objects.',
      ].join('\n'),
    };
    const out = await answer('What is the difference between shallow and deep copying?', [copy]);
    expect(lines(out)[0]).toBe('> The difference between shallow and deep copying is only relevant for compound objects. [1]');
    expect(out).not.toContain('copy.Error');
    // Named by the question, the label is quoted with any paragraph under it.
    const named = await answer('When is copy.Error raised, and what about compound objects?', [copy]);
    expect(lines(named)).toContain('> exception copy.Error¶ [1]');
  });

  it('quotes the best sentence first, then the rest of a passage in the order the page has them', async () => {
    const notify: Passage = {
      n: 1,
      title: 'Messages',
      url: null,
      heading: 'Messages',
      content: [
        'Each payload is counted in bytes, not in characters, whatever the client encoding of the session happens to be.',
        '',
        'Listeners receive the payload as text, byte for byte.',
        '',
        'In the default configuration a NOTIFY payload must be shorter than 8000 bytes.',
      ].join('\n'),
    };
    const out = lines(await answer('How many bytes may a NOTIFY payload hold?', [notify]));
    expect(out[0]).toBe('> In the default configuration a NOTIFY payload must be shorter than 8000 bytes. [1]');
    const rest = out.slice(1).map((l) => notify.content.indexOf(l.replace(/^> /, '').replace(/ \[1\]$/, '')));
    expect(rest.length).toBeGreaterThan(1);
    expect(rest.every((at) => at >= 0)).toBe(true);
    expect(rest).toEqual([...rest].sort((a, b) => a - b));
  });
});
