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
