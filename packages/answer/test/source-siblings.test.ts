import { beforeAll, expect, it } from 'vitest';
import { audienceKeys, EVERYTHING, withService, type ArtifactMatch } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { sourceSiblings as readSiblings, withSiblings } from '../src/source-siblings.ts';
import type { TermStats } from '../src/text/term-weights.ts';
import { createWorkspace, queryRows, seedDocs, testLogger, type SeededDoc } from './seed.ts';

const embedder = createLocalEmbedder();
const STAFF = 'channel:200000000000000001';
const QUESTION = 'How does the retry backoff setting work for zorblax uploads?';
// "retry", "backoff", "setting", "work" and "upload" are in every filler passage, so only
// "zorblax" tells passages apart.
const STATS: TermStats = { documents: 40, frequencies: new Map([['retri', 40], ['backoff', 40], ['set', 40], ['work', 40], ['upload', 40], ['zorblax', 2]]), cap: 3 };

/** Every further passage read, defining ones first. */
async function sourceSiblings(...args: Parameters<typeof readSiblings>) {
  const found = await readSiblings(...args);
  return [...found.defining, ...found.better];
}

/** A passage as match_artifacts returns it. */
function matchOf(doc: SeededDoc, i: number, content: string): ArtifactMatch {
  return { chunkId: doc.chunkIds[i] as string, artifactId: doc.artifactId, title: 'Uploads', url: null, heading: 'Uploads', content, similarity: 0.9, vectorRank: 1, keywordRank: 1, score: 1, matchedBy: ['vector', 'keyword'] };
}

describeDb('the best sources’ further passages', (suite) => {
  let ws = '';
  let uploads: SeededDoc;
  let other: SeededDoc;
  let staff: SeededDoc;
  const general = 'The retry backoff setting works for uploads: each retry of an upload waits for the backoff setting, and the retry setting works the same way.';
  const fact = 'Zorblax uploads resume from the last confirmed block after a dropped connection, whatever the backoff.';
  const { logger } = testLogger();

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'siblings');
    [uploads, other, staff] = (await seedDocs(suite.db, ws, embedder, [
      { title: 'Uploads', passages: [general, 'Uploads are limited to 2 GB each.', fact] },
      { title: 'Zorblax FAQ', passages: ['Zorblax is the upload protocol. Zorblax zorblax zorblax.'] },
      { title: 'Staff uploads', passages: ['Retry backoff settings for staff uploads work as for everyone.', 'A zorblax upload that only staff can see is paused.'] },
      ...Array.from({ length: 8 }, (_, i) => ({ title: `Filler ${i}`, passages: [`Retry backoff setting ${i} works for uploads; the retry setting and backoff work.`] })),
    ])) as [SeededDoc, SeededDoc, SeededDoc];
    // Saved in a staff channel: its passages take that audience (kept by trigger).
    await withService(suite.db, (tx) => tx.query('update artifacts set audience = $2 where id = $1', [staff.artifactId, STAFF]));
  });

  it('adds the passage of a retrieved source that holds the question’s informative word, and nothing else', async () => {
    const found = await sourceSiblings(suite.db, { workspaceId: ws, audience: audienceKeys(['workspace']), question: QUESTION, matches: [matchOf(uploads, 0, general)], termStats: STATS });
    // Not the other source's passage (retrieval did not choose it), nor the retrieved one.
    expect(found.map((m) => m.chunkId)).toEqual([uploads.chunkIds[2]]);
    expect(found[0]).toMatchObject({ artifactId: uploads.artifactId, content: fact, title: 'Uploads', matchedBy: ['source'] });
  });

  it('reads only sources the reply’s audience may see, whatever it is handed', async () => {
    const handed = [matchOf(uploads, 0, general), { ...matchOf(staff, 0, 'Retry backoff settings for staff uploads work as for everyone.'), artifactId: staff.artifactId }];
    const everyone = await sourceSiblings(suite.db, { workspaceId: ws, audience: audienceKeys(['workspace']), question: QUESTION, matches: handed, termStats: STATS });
    expect(everyone.map((m) => m.chunkId)).toEqual([uploads.chunkIds[2]]);
    const staffReader = await sourceSiblings(suite.db, { workspaceId: ws, audience: audienceKeys(['workspace', STAFF]), question: QUESTION, matches: handed, termStats: STATS });
    expect(staffReader.map((m) => m.chunkId).sort()).toEqual([uploads.chunkIds[2], staff.chunkIds[1]].sort());
  });

  it('adds nothing when a retrieved passage already holds the informative words as well, or the question has none', async () => {
    const already = [matchOf(uploads, 0, general), { ...matchOf(other, 0, 'Zorblax is the upload protocol. Zorblax zorblax zorblax.'), artifactId: other.artifactId }];
    expect(await sourceSiblings(suite.db, { workspaceId: ws, audience: EVERYTHING, question: QUESTION, matches: already, termStats: STATS })).toEqual([]);
    expect(await sourceSiblings(suite.db, { workspaceId: ws, audience: EVERYTHING, question: 'How does the retry backoff setting work?', matches: [matchOf(uploads, 0, general)], termStats: STATS })).toEqual([]);
  });

  it('adds first the passage that defines the name asked about, though shorter passages that only mention it score higher', async () => {
    const synopsis = '```\nNOTIFY channel [ , payload ]\n```';
    const parameters = '`channel`\n\nName of the notification channel to be signaled.\n\n`payload`\n\nThe payload string to be communicated along with the notification. In the default configuration it must be shorter than 8000 bytes.';
    const [notify] = await seedDocs(suite.db, ws, embedder, [
      {
        title: 'NOTIFY',
        passages: [
          synopsis,
          'NOTIFY sends a notification event together with an optional payload string. A payload string can be sent along with the notification; the payload is an empty string if it has not been specified.',
          parameters,
          'NOTIFY virtual, payload: Asynchronous notification "virtual" with payload "This is the payload" received. SELECT pg_notify(payload) sends a payload notification.',
        ],
      },
    ]);
    const doc = notify as SeededDoc;
    const stats: TermStats = { documents: 400, frequencies: new Map([['maximum', 40], ['payload', 3], ['size', 40], ['notifi', 4], ['messag', 40]]), cap: 40 };
    const found = await sourceSiblings(suite.db, { workspaceId: ws, audience: EVERYTHING, question: 'What is the maximum payload size of a NOTIFY message?', matches: [matchOf(doc, 0, synopsis)], termStats: stats });
    expect(found[0]?.chunkId).toBe(doc.chunkIds[2]);
    expect(found.length).toBeLessThanOrEqual(2);
  });

  it('in a workspace of a page, reads the term line of a word the page uses everywhere only when the retrieved passages miss the rest of the question', async () => {
    const description = 'NOTIFY sends a notification event with an optional payload string. The payload string can tell cases apart; identical payload strings in one transaction are delivered once.';
    const parameters = '`channel`\n\nName of the notification channel.\n\n`payload`\n\nThe payload string to be communicated along with the notification. In the default configuration it must be shorter than 8000 bytes.';
    const [page] = await seedDocs(suite.db, ws, embedder, [{ title: 'NOTIFY', passages: [description, 'The payload of a notification is delivered as is: listeners get the payload and the channel, in commit order.', parameters] }]);
    const doc = page as SeededDoc;
    // Eleven passages, "payload" on seven: generic by count. "maximum" and "size" are on none.
    const stats: TermStats = { documents: 11, frequencies: new Map([['maximum', 0], ['payload', 7], ['size', 0], ['notifi', 11], ['messag', 1], ['order', 2]]), cap: 11 };
    const asked = await readSiblings(suite.db, { workspaceId: ws, audience: EVERYTHING, question: 'What is the maximum payload size of a NOTIFY message?', matches: [matchOf(doc, 0, description)], termStats: stats });
    expect(asked.defining.map((m) => m.chunkId)).toEqual([doc.chunkIds[2]]);
    // The retrieved passage holds what else the question asks ("order"): no term line is read for "payload".
    const held = await readSiblings(suite.db, { workspaceId: ws, audience: EVERYTHING, question: 'In what order is a NOTIFY payload delivered?', matches: [matchOf(doc, 1, 'The payload of a notification is delivered as is: listeners get the payload and the channel, in commit order.')], termStats: stats });
    expect(held.defining).toEqual([]);
    // Over a whole manual where it is as common, the same word is not read for its term line.
    const manual = await readSiblings(suite.db, { workspaceId: ws, audience: EVERYTHING, question: 'What is the maximum payload size of a NOTIFY message?', matches: [matchOf(doc, 0, description)], termStats: { ...stats, documents: 400, frequencies: new Map([['maximum', 10], ['payload', 100], ['size', 10], ['notifi', 200], ['messag', 30]]) } });
    expect(manual.defining).toEqual([]);
  });

  it('takes a section whose own heading names what is asked for its definition, and reads it second', async () => {
    const [api, guide] = (await seedDocs(suite.db, ws, embedder, [
      {
        title: 'API',
        passages: [
          'The default log destination is stdout, and a child logger inherits the level of its parent by default.',
          "Default: `'info'`\n\nThe minimum level to log: messages of a lower level are not written.",
          'Default: `undefined`\n\nUse this option to define additional logging levels, each with its numeric level.',
        ],
      },
      { title: 'Transports', passages: ['A transport may filter log lines by level; by default it receives every line.'] },
    ])) as [SeededDoc, SeededDoc];
    const headed = [['API'], ['API', 'options (Object)', '`level` (String)'], ['API', 'options (Object)', '`customLevels` (Object)']];
    for (const [i, path] of headed.entries()) {
      await withService(suite.db, (tx) => tx.query('update chunks set heading = $2 where id = $1', [api.chunkIds[i], path.join(' › ')]));
    }
    // Every word is generic in this workspace; "default" and "level" are its least common ones.
    const stats: TermStats = { documents: 100, frequencies: new Map([['default', 20], ['log', 70], ['level', 30]]), cap: 50 };
    const matches = [matchOf(api, 0, 'The default log destination is stdout, and a child logger inherits the level of its parent by default.'), { ...matchOf(guide, 0, 'A transport may filter log lines by level; by default it receives every line.'), artifactId: guide.artifactId }];
    const found = await readSiblings(suite.db, { workspaceId: ws, audience: EVERYTHING, question: 'What is the default log level?', matches, termStats: stats });
    expect(found.defining.map((m) => m.chunkId)).toEqual([api.chunkIds[1]]);
    expect(withSiblings(matches, found).map((m) => m.chunkId)).toEqual([api.chunkIds[0], api.chunkIds[1], guide.chunkIds[0], ...found.better.map((m) => m.chunkId)]);
  });

  it('takes the passage whose term line spells the option the question writes, though every word of the option is generic', async () => {
    const synopsis = '```\ngit frob [-k | --[no-]keep-index] [-q]\n```';
    const options = '-q, --quiet\n\nQuiet, suppress feedback messages.\n\n-k, --keep-index, --no-keep-index\n\nAll changes already added to the index are left intact.';
    const [frob] = await seedDocs(suite.db, ws, embedder, [
      { title: 'git-frob(1)', passages: [synopsis, 'Use git frob when you want to keep a frob of the index and go back to a clean tree.', options] },
    ]);
    const doc = frob as SeededDoc;
    // "keep", "index" and "frob" are in most passages here: the question has no informative word.
    const stats: TermStats = { documents: 100, frequencies: new Map([['git', 100], ['frob', 60], ['keep', 40], ['index', 50]]), cap: 50 };
    const question = 'What does git frob --keep-index do?';
    const found = await readSiblings(suite.db, { workspaceId: ws, audience: EVERYTHING, question, matches: [matchOf(doc, 0, synopsis)], termStats: stats });
    expect(found.defining.map((m) => m.chunkId)).toEqual([doc.chunkIds[2]]);
    // A question about another option of the page reads no definition.
    const other = await readSiblings(suite.db, { workspaceId: ws, audience: EVERYTHING, question: 'What does git frob --patch do?', matches: [matchOf(doc, 0, synopsis)], termStats: stats });
    expect(other.defining).toEqual([]);
  });

  it('lets /ask quote the passage that states the fact when retrieval returned only its neighbour', async () => {
    await withService(suite.db, (tx) => tx.query('update workspaces set match_count = 1 where id = $1', [ws]));
    const result = await ask({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger }, { workspaceId: ws, question: QUESTION, surface: 'cli', audience: audienceKeys(['workspace']) });
    expect(result.grounded).toBe(true);
    expect(result.answer).toContain(`${fact} [`);
    expect(result.answer).not.toContain('staff can see');
    const cited = result.citations.find((c) => result.answer.includes(`${fact} [${c.n}]`));
    expect(cited).toMatchObject({ chunkId: uploads.chunkIds[2], artifactId: uploads.artifactId });
    const [row] = await queryRows(suite.db, ws);
    // The record lists what the answerer read: the retrieved passage first, then the added one.
    expect(row?.retrieved.map((r) => r.chunk_id)).toEqual([uploads.chunkIds[0], uploads.chunkIds[2]]);
    expect(row?.latency_ms.siblings).toBeGreaterThanOrEqual(0);
  });
});
