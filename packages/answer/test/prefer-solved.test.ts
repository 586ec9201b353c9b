import { expect, it } from 'vitest';
import { EVERYTHING, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { preferSolved, SOLVED_BOOST } from '../src/prefer-solved.ts';
import { retrieve } from '../src/retrieve.ts';
import { createWorkspace, seedDocs } from './seed.ts';

const embedder = createLocalEmbedder();
const timeouts = { embedMs: 5_000, searchMs: 5_000 };

describeDb('solved sources preferred after fusion', (suite) => {
  it('lifts a solved thread over an unsolved one just above it, and leaves a workspace without solved sources as fusion ranked it', async () => {
    const ws = await createWorkspace(suite.db, 'solved');
    // The unsolved thread repeats the question's words, so fusion ranks it first.
    const [unsolved, solved] = await seedDocs(suite.db, ws, embedder, [
      { title: 'Webhook retries stuck', passages: ['Webhook retries are stuck: webhook retries never stop retrying, why do webhook retries loop?'] },
      { title: 'Webhook retries loop', passages: ['Webhook retries loop until you set max_attempts; the fix is max_attempts = 5.'] },
    ]);
    const question = 'why do webhook retries loop?';
    const before = await retrieve({ db: suite.db, embedder }, { workspaceId: ws, question, audience: EVERYTHING, timeouts });
    expect(before.matches.map((m) => m.artifactId)).toEqual([unsolved?.artifactId, solved?.artifactId]);

    await withWorkspace(suite.db, ws, (tx) => tx.query(`update artifacts set metadata = metadata || '{"solved": true}'::jsonb where id = $1`, [solved?.artifactId]));
    const after = await retrieve({ db: suite.db, embedder }, { workspaceId: ws, question, audience: EVERYTHING, timeouts });
    expect(after.matches.map((m) => m.artifactId)).toEqual([solved?.artifactId, unsolved?.artifactId]);
    const top = after.matches[0];
    const plain = before.matches.find((m) => m.artifactId === solved?.artifactId);
    expect(top?.score).toBeCloseTo((plain?.score ?? 0) * SOLVED_BOOST, 10);

    // Without solved sources (or with the boost off) the list is the very same.
    const other = await createWorkspace(suite.db, 'unsolved-only');
    await seedDocs(suite.db, other, embedder, [{ title: 'Webhook retries loop', passages: ['Webhook retries loop until you set max_attempts.'] }, { title: 'Retries', passages: ['Retries loop.'] }]);
    const plainList = (await retrieve({ db: suite.db, embedder }, { workspaceId: other, question, audience: EVERYTHING, timeouts })).matches;
    const same = await withWorkspace(suite.db, other, (tx) => preferSolved(tx, other, plainList));
    expect(same).toBe(plainList);
    const off = await withWorkspace(suite.db, ws, (tx) => preferSolved(tx, ws, before.matches, 1));
    expect(off).toBe(before.matches);
  });
});
