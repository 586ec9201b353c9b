import { beforeAll, expect, it } from 'vitest';
import { EVERYTHING } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { SMALL_WORKSPACE_PASSAGES } from '../src/text/term-weights.ts';
import { createWorkspace, seedDocs, testLogger } from './seed.ts';

const embedder = createLocalEmbedder();
const FACT = 'In the default configuration it must be shorter than 8000 bytes.';

// One reference page saved alone, written after PostgreSQL's NOTIFY page and with its counts: the
// word it is about ("payload") is on most of its passages, so by count it is generic, and only its
// term line in the Parameters passage says where the page defines it; "message" is on two
// passages, "maximum" and "size" on none.
const PAGE = [
  'NOTIFY — generate a notification',
  '```\nNOTIFY channel [ , payload ]\n```',
  'The `NOTIFY` command sends a notification event together with an optional payload string to each client application that has executed `LISTEN` for the channel. A payload string can be sent along with the notification.',
  'For example, a designer could use several channel names to signal different sorts of changes to a table. Alternatively, the payload string could be used to tell cases apart.',
  'If the same channel name is signaled several times with identical payload strings within one transaction, only one notification event is delivered to listeners. Messages from different transactions are delivered in the order in which the transactions committed.',
  '`channel`\n\nName of the notification channel to be signaled (any identifier).\n\n`payload`\n\nThe payload string to be communicated along with the notification. This must be specified as a simple string literal. ' + FACT,
  'A session can tell its own notifications apart by the server process PID supplied in the notification event message.',
  'There is a queue that holds notifications that have been sent but not yet processed by all listening sessions. The queue is quite large (8GB in a standard installation).',
  'LISTEN virtual;\nNOTIFY virtual, \'This is the payload\';\nAsynchronous notification "virtual" with payload "This is the payload" received from server process with PID 8448.',
  'There is no `NOTIFY` statement in the SQL standard.',
];

describeDb('a newcomer’s workspace of one page', (suite) => {
  let ws = '';
  const { logger } = testLogger();

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'one-page');
    await seedDocs(suite.db, ws, embedder, [{ title: 'NOTIFY', passages: PAGE }]);
  });

  it('quotes first what the page says under the term line of the word it is about, however common that word is on the page', async () => {
    expect(PAGE.length).toBeLessThan(SMALL_WORKSPACE_PASSAGES);
    const result = await ask(
      { db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger },
      { workspaceId: ws, question: 'What is the maximum payload size of a NOTIFY message?', surface: 'cli', audience: EVERYTHING },
    );
    expect(result.grounded).toBe(true);
    const quotes = result.answer.split('\n').filter((line) => line.startsWith('> '));
    const first = quotes.findIndex((line) => line.includes(FACT));
    expect(first).toBeGreaterThanOrEqual(0);
    // Only the term line itself may come before it: it says what the fact is about.
    expect(quotes.slice(0, first).every((line) => line.startsWith('> `payload`'))).toBe(true);
  });
});

// Written after SQLite's page on its temporary files: nearly every passage says "SQLite",
// "temporary" or "files", so by count they are generic; the introduction says "many".
const TEMP_FILES = [
  'An SQLite database consists of a single disk file. But while a complete database is held in a single disk file, SQLite does make use of many temporary files during the course of processing a database.',
  'This article describes the various temporary files that SQLite creates and uses. It describes when the temporary files are created and when they are deleted.',
  'SQLite currently uses nine distinct types of temporary files:\n\n- Rollback journals\n- Write-ahead Log (WAL) files\n- Statement journals\n- TEMP databases\n- Transient indices',
  'A rollback journal is a temporary file used to implement atomic commit and rollback capabilities in SQLite. The rollback journal files are deleted when the transaction commits.',
  'A write-ahead log or WAL file is used in place of a rollback journal when SQLite is operating in WAL mode. The WAL files are kept until the last connection closes.',
  'A statement journal file is a temporary file used to roll back partial results of a single statement within a larger transaction in SQLite.',
  'Tables created using the "CREATE TEMP TABLE" syntax are only visible to the database connection in which they are created. These temporary files of SQLite are deleted on close.',
  'SQLite may make use of transient indices, each stored in its own temporary file, to implement ORDER BY or GROUP BY clauses.',
];

describeDb('a newcomer’s workspace of one page that says "many"', (suite) => {
  let ws = '';
  const { logger } = testLogger();
  const deps = () => ({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger });

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'one-page-counts');
    await seedDocs(suite.db, ws, embedder, [{ title: 'Temporary Files Used By SQLite', passages: TEMP_FILES }]);
  });

  it('refuses a "how many" question about something else, however many things the page says "many" of', async () => {
    const result = await ask(deps(), { workspaceId: ws, question: 'How many players does a rugby union team have on the field?', surface: 'cli', audience: EVERYTHING });
    expect(result.grounded).toBe(false);
  });
});
