import { beforeAll, expect, it } from 'vitest';
import { withService, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { listQuestions, loadQuestion, loadQuestions } from '../src/index.ts';
import { insertQuestions } from '../src/testing/index.ts';
import { createWorkspace, seedFixture, type Fixture } from './fixture.ts';

describeDb('questions: list, filter, page, detail', (suite) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await seedFixture(suite.db, 'questions');
  });

  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  it('lists every question newest first, in stable pages, with the total', async () => {
    const first = await withWorkspace(suite.db, f.a, (tx) => listQuestions(tx, f.a, { limit: 4 }));
    expect(ids(first.questions)).toEqual([f.q.q1, f.q.q6, f.q.q2, f.q.q3]);
    expect(first.total).toBe(6);
    const second = await withWorkspace(suite.db, f.a, (tx) => listQuestions(tx, f.a, { limit: 4, cursor: first.nextCursor ?? '' }));
    expect(ids(second.questions)).toEqual([f.q.q4, f.q.q5]);
    expect(second.nextCursor).toBeNull();

    const q1 = first.questions[0];
    expect(q1).toMatchObject({
      question: 'Where is the alpha handbook?',
      grounded: true,
      feedback: 'up',
      latency: { embed: 10, search: 20, generate: 100, total: 131 },
    });
    expect(q1?.retrieved.map((r) => [r.similarity, r.rank, r.artifactId])).toEqual([
      [0.82, 1, f.sources.a.artifactId],
      [0.55, 2, f.sources.b.artifactId],
      [0.31, 3, f.sources.c.artifactId],
    ]);
    expect(q1?.cited.map((c) => c.chunkId)).toEqual([f.sources.a.chunkIds[0]]);
  });

  it('filters unanswered and 👎 questions', async () => {
    const unanswered = await withWorkspace(suite.db, f.a, (tx) => listQuestions(tx, f.a, { filter: 'unanswered' }));
    expect(ids(unanswered.questions)).toEqual([f.q.q3, f.q.q4]);
    expect(unanswered.total).toBe(2);
    const down = await withWorkspace(suite.db, f.a, (tx) => listQuestions(tx, f.a, { filter: 'down' }));
    expect(ids(down.questions)).toEqual([f.q.q2]);
  });

  it('pages by the database timestamp, so questions within the same millisecond are neither skipped nor repeated', async () => {
    const ws = await createWorkspace(suite.db, 'questions-micro');
    const [x, y, z] = await insertQuestions(suite.db, ws, [
      { question: 'x', grounded: true },
      { question: 'y', grounded: true },
      { question: 'z', grounded: true },
    ]);
    await withService(suite.db, (tx) =>
      tx.query(
        `update queries set created_at = case id when $1::uuid then timestamptz '2026-11-30 10:00:00.123456+00'
           when $2::uuid then timestamptz '2026-11-30 10:00:00.123300+00' else timestamptz '2026-11-30 10:00:00.123100+00' end
         where workspace_id = $3`,
        [x, y, ws],
      ),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await withWorkspace(suite.db, ws, (tx) => listQuestions(tx, ws, { limit: 1, cursor }));
      seen.push(...ids(page.questions));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([x, y, z]);
  });

  it("refuses a malformed cursor, and finds nothing after another workspace's question", async () => {
    const error = await withWorkspace(suite.db, f.a, (tx) => listQuestions(tx, f.a, { cursor: 'garbage' })).catch((e: unknown) => e);
    expect(isAppError(error, 'CURSOR_INVALID')).toBe(true);
    const foreign = await withWorkspace(suite.db, f.a, (tx) => listQuestions(tx, f.a, { cursor: f.bQuestions[0] }));
    expect(foreign.questions).toEqual([]);
  });

  it('names the sources a page retrieved from, and never another workspace\'s', async () => {
    const data = await loadQuestions(suite.db, f.a, { filter: 'all' });
    expect([...data.sources.values()].map((s) => s.label).sort()).toEqual(['Alpha handbook', 'Beta notes', 'Gamma FAQ']);
    const other = await loadQuestions(suite.db, f.b, { filter: 'all' });
    expect([...other.sources.values()].map((s) => s.label)).toEqual(['B secret plans']);
    expect(ids(other.page.questions).some((id) => Object.values(f.q).includes(id))).toBe(false);
  });

  it('shows one question whole, with its passages as they are now; another workspace\'s is not found', async () => {
    const data = await loadQuestion(suite.db, f.a, f.q.q2);
    expect(data?.question).toMatchObject({ id: f.q.q2, grounded: true, feedback: 'down' });
    expect(data?.question.answer).toContain('What do the beta notes say?');
    expect([...(data?.passages.keys() ?? [])].sort()).toEqual([f.sources.b.chunkIds[1], f.sources.a.chunkIds[1]].sort());
    expect(data?.passages.get(f.sources.b.chunkIds[1] as string)?.excerpt).toContain('Beta notes');

    // A passage replaced since (a re-index) is simply absent.
    await withService(suite.db, (tx) => tx.query('delete from chunks where id = $1', [f.sources.a.chunkIds[1]]));
    expect((await loadQuestion(suite.db, f.a, f.q.q2))?.passages.size).toBe(1);

    expect(await loadQuestion(suite.db, f.a, f.bQuestions[0] as string)).toBeUndefined();
    expect(await loadQuestion(suite.db, f.a, 'not-a-uuid')).toBeUndefined();
  });
});
