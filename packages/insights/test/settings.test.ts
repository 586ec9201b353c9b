import { beforeAll, expect, it } from 'vitest';
import { withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { loadSettings, parseRetrievalSettings, previewSettings, readRetrievalSettings, saveSettings } from '../src/index.ts';
import { createWorkspace, seedFixture, type Fixture } from './fixture.ts';
import { insertQuestions } from '../src/testing/index.ts';
import { randomUUID } from 'node:crypto';

it('validates settings with a message per field', () => {
  expect(parseRetrievalSettings({ matchCount: '5', minSimilarity: '0.2' })).toEqual({ ok: true, settings: { matchCount: 5, minSimilarity: 0.2 } });
  expect(parseRetrievalSettings({ matchCount: ' 20 ', minSimilarity: '.35' })).toEqual({ ok: true, settings: { matchCount: 20, minSimilarity: 0.35 } });
  expect(parseRetrievalSettings({ matchCount: 1, minSimilarity: 1 })).toEqual({ ok: true, settings: { matchCount: 1, minSimilarity: 1 } });
  expect(parseRetrievalSettings({ matchCount: '3', minSimilarity: '0.12345' })).toEqual({ ok: true, settings: { matchCount: 3, minSimilarity: 0.123 } });
  for (const matchCount of ['0', '21', '5.5', 'five', '', undefined, '1e1', '-3']) {
    const parsed = parseRetrievalSettings({ matchCount, minSimilarity: '0.2' });
    expect(parsed).toEqual({ ok: false, errors: { matchCount: 'Passages per answer must be a whole number from 1 to 20.' } });
  }
  for (const minSimilarity of ['1.01', '-0.1', 'abc', '', '0,3', 'NaN', 'Infinity', null]) {
    const parsed = parseRetrievalSettings({ matchCount: '5', minSimilarity });
    expect(parsed).toEqual({ ok: false, errors: { minSimilarity: 'The similarity floor must be a number from 0 to 1, like 0.25.' } });
  }
  const both = parseRetrievalSettings({ matchCount: '99', minSimilarity: '2' });
  expect(both.ok ? [] : Object.keys(both.errors).sort()).toEqual(['matchCount', 'minSimilarity']);
});

describeDb('retrieval settings: preview and save', (suite) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await seedFixture(suite.db, 'settings');
  });

  const preview = (matchCount: number, minSimilarity: number) =>
    withWorkspace(suite.db, f.a, (tx) => previewSettings(tx, f.a, { matchCount: 5, minSimilarity: 0.15 }, { matchCount, minSimilarity }));

  it('estimates what a higher floor does to recent questions from their stored similarities', async () => {
    // Floor 0.5: q1 keeps .82 .55 (cited a1 kept); q2 keeps .61 (b2 cited, kept); q4 loses .18; q3 had nothing; q5, q6 keep theirs.
    expect(await preview(5, 0.5)).toMatchObject({
      questions: 6,
      loosens: false,
      answeredNow: 4,
      answeredStillBacked: 4,
      answersLosingAllCitations: 0,
      withoutPassagesNow: 1,
      withoutPassagesAfter: 2,
      passagesNow: 8,
      passagesAfter: 5,
      examples: [],
    });
  });

  it('keeps a passage the keyword leg ranked within the count whatever its similarity, as match_artifacts does', async () => {
    const ws = await createWorkspace(suite.db, 'settings-keyword');
    const passage = { chunk_id: randomUUID(), artifact_id: randomUUID() };
    await insertQuestions(suite.db, ws, [
      { question: 'What does QX_FLUX_7 mean?', grounded: true, retrieved: [{ ...passage, similarity: 0.05, rank: 1, keyword_rank: 1, matched_by: ['vector', 'keyword'] }] },
      { question: 'flux capacitor?', grounded: true, retrieved: [{ ...passage, similarity: 0.05, rank: 1, keyword_rank: 7, matched_by: ['vector', 'keyword'] }] },
    ]);
    const result = await withWorkspace(suite.db, ws, (tx) => previewSettings(tx, ws, { matchCount: 5, minSimilarity: 0.15 }, { matchCount: 5, minSimilarity: 0.5 }));
    expect(result).toMatchObject({ questions: 2, passagesNow: 2, passagesAfter: 1, withoutPassagesAfter: 1 });
  });

  it('applies a lower passage count by rank, and lists the answers that would lose every cited passage', async () => {
    // k = 1, floor 0.7: q1 keeps .82 (rank 1); q2's rank-1 .61 falls under the floor, so both its citations go.
    const result = await preview(1, 0.7);
    expect(result).toMatchObject({ answeredNow: 4, answeredStillBacked: 3, answersLosingAllCitations: 1, withoutPassagesAfter: 3, passagesAfter: 3 });
    expect(result.examples.map((e) => [e.id, e.keptBefore, e.keptAfter, e.citedBefore, e.citedAfter])).toEqual([[f.q.q2, 2, 0, 2, 0]]);
    // k = 2 at the current floor drops only q1's rank-3 passage.
    expect(await preview(2, 0.15)).toMatchObject({ passagesAfter: 7, answersLosingAllCitations: 0, withoutPassagesAfter: 1 });
  });

  it('marks a looser proposal, whose additions the stored rows cannot know', async () => {
    expect(await preview(10, 0.15)).toMatchObject({ loosens: true, passagesAfter: 8 });
    expect((await preview(5, 0.05)).loosens).toBe(true);
  });

  it('previews through the settings page loader, with the form errors when the values are invalid', async () => {
    const ok = await loadSettings(suite.db, f.a, { matchCount: '5', minSimilarity: '0.5' });
    expect(ok.preview?.passagesAfter).toBe(5);
    const bad = await loadSettings(suite.db, f.a, { matchCount: '0', minSimilarity: '0.5' });
    expect(bad.preview).toBeUndefined();
    expect(bad.proposal).toMatchObject({ ok: false, errors: { matchCount: expect.any(String) } });
    expect((await loadSettings(suite.db, f.a)).similarity).toHaveLength(20);
  });

  it("saves valid settings for the session's workspace only, and refuses invalid ones", async () => {
    const saved = await saveSettings(suite.db, f.a, { matchCount: '8', minSimilarity: '0.3' });
    expect(saved).toEqual({ ok: true, before: { matchCount: 5, minSimilarity: 0.15 }, after: { matchCount: 8, minSimilarity: 0.3 } });
    expect(await withWorkspace(suite.db, f.b, (tx) => readRetrievalSettings(tx, f.b))).toEqual({ matchCount: 5, minSimilarity: 0.15 });
    const refused = await saveSettings(suite.db, f.a, { matchCount: '21', minSimilarity: '0.3' });
    expect(refused.ok).toBe(false);
    expect(await withWorkspace(suite.db, f.a, (tx) => readRetrievalSettings(tx, f.a))).toEqual({ matchCount: 8, minSimilarity: 0.3 });
  });
});
