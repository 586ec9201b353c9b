import { beforeAll, expect, it } from 'vitest';
import { withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { latencyPercentiles, loadOverview, overviewFigures, similarityHistogram, unansweredByDay } from '../src/index.ts';
import { createWorkspace, seedFixture, type Fixture } from './fixture.ts';

describeDb('dashboard figures against known data', (suite) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await seedFixture(suite.db, 'figures');
  });

  it('counts sources by status, live passages, questions this week and last, unanswered and votes over the window', async () => {
    const figures = await withWorkspace(suite.db, f.a, (tx) => overviewFigures(tx, f.a, 30));
    expect(figures).toEqual({
      sources: { queued: 1, indexing: 0, ready: 3, failed: 1, forgotten: 1 },
      passages: 9,
      questionsThisWeek: 4,
      questionsLastWeek: 1,
      window: { days: 30, questions: 5, unanswered: 2, unansweredRate: 0.4, up: 1, down: 1, upShare: 0.5 },
    });
    const week = await withWorkspace(suite.db, f.a, (tx) => overviewFigures(tx, f.a, 7));
    expect(week.window).toEqual({ days: 7, questions: 4, unanswered: 1, unansweredRate: 0.25, up: 1, down: 1, upShare: 0.5 });
    const ninety = await withWorkspace(suite.db, f.a, (tx) => overviewFigures(tx, f.a, 90));
    expect(ninety.window).toMatchObject({ questions: 6, unanswered: 2, up: 2, down: 1 });
  });

  it('gives no rate rather than 0 % when there is nothing to divide, and reads nothing of another workspace', async () => {
    const empty = await createWorkspace(suite.db, 'figures-empty');
    const none = await withWorkspace(suite.db, empty, (tx) => overviewFigures(tx, empty, 30));
    expect(none).toEqual({
      sources: { queued: 0, indexing: 0, ready: 0, failed: 0, forgotten: 0 },
      passages: 0,
      questionsThisWeek: 0,
      questionsLastWeek: 0,
      window: { days: 30, questions: 0, unanswered: 0, unansweredRate: null, up: 0, down: 0, upShare: null },
    });
    // B's id, read as A's tenant: RLS and the explicit predicate both leave nothing.
    const leaked = await withWorkspace(suite.db, f.a, (tx) => overviewFigures(tx, f.b, 30));
    expect(leaked).toEqual({ ...none });
  });

  it('bins retrieved similarities by 0.05 with the cited ones apart, 1.0 in the last bin', async () => {
    const bins = await withWorkspace(suite.db, f.a, (tx) => similarityHistogram(tx, f.a, 30));
    expect(bins).toHaveLength(20);
    expect(bins[0]).toEqual({ from: 0, to: 0.05, retrieved: 0, cited: 0 });
    const nonEmpty = Object.fromEntries(bins.flatMap((b, i) => (b.retrieved > 0 ? [[i, [b.retrieved, b.cited]]] : [])));
    // .18 → 3, .31 → 6, .42 → 8 (cited), .55 → 11, .61 → 12 (cited), .82 → 16 (cited), 1.0 → 19 (cited); q5's .90 is outside the window.
    expect(nonEmpty).toEqual({ 3: [1, 0], 6: [1, 0], 8: [1, 1], 11: [1, 0], 12: [1, 1], 16: [1, 1], 19: [1, 1] });
  });

  it('gives p50/p95/p99 per stage, interpolated, over the stages each question ran', async () => {
    const stages = await withWorkspace(suite.db, f.a, (tx) => latencyPercentiles(tx, f.a, 30));
    const byStage = Object.fromEntries(stages.map((s) => [s.stage, s]));
    // total: 31 131 241 371 491 → p50 241; p95 at 3.8 → 371 + 0.8 × 120 = 467; p99 at 3.96 → 486.2
    expect(byStage.total).toMatchObject({ samples: 5, p50: 241 });
    expect(byStage.total?.p95).toBeCloseTo(467, 6);
    expect(byStage.total?.p99).toBeCloseTo(486.2, 6);
    // generate ran four times (q3 retrieved nothing): 100 200 300 400 → 250 (at 1.5), 385 (2.85), 397 (2.97)
    expect(byStage.generate).toMatchObject({ samples: 4, p50: 250 });
    expect(byStage.generate?.p95).toBeCloseTo(385, 6);
    expect(byStage.generate?.p99).toBeCloseTo(397, 6);
    expect(byStage.embed).toMatchObject({ samples: 5, p50: 20 });
    expect(byStage.embed?.p95).toBeCloseTo(38, 6);
    expect(byStage.search?.p50).toBe(30);
    expect(byStage.search?.p99).toBeCloseTo(49.6, 6);

    const none = await withWorkspace(suite.db, f.a, (tx) => latencyPercentiles(tx, f.b, 30));
    expect(none.every((s) => s.samples === 0 && s.p50 === null && s.p99 === null)).toBe(true);
  });

  it('counts questions and unanswered ones per UTC day, every day of the window, oldest first', async () => {
    const days = await withWorkspace(suite.db, f.a, (tx) => unansweredByDay(tx, f.a, 7));
    expect(days).toHaveLength(7);
    expect(days.at(-1)?.day).toBe(new Date().toISOString().slice(0, 10));
    expect(days[0]?.day).toBe(new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10));
    // Expected from the fixture's own timestamps: q1, q6, q2 answered and q3 unanswered fall in the last 7 days.
    const expected = new Map<string, { questions: number; unanswered: number }>();
    for (const [at, unanswered] of [[f.now - 3_600_000, 0], [f.now - 5 * 3_600_000, 0], [f.now - 2 * 86_400_000, 0], [f.now - 3 * 86_400_000, 1]] as const) {
      const key = new Date(at).toISOString().slice(0, 10);
      const e = expected.get(key) ?? { questions: 0, unanswered: 0 };
      expected.set(key, { questions: e.questions + 1, unanswered: e.unanswered + unanswered });
    }
    for (const d of days) {
      const e = expected.get(d.day) ?? { questions: 0, unanswered: 0 };
      expect(d).toEqual({ day: d.day, ...e, rate: e.questions > 0 ? e.unanswered / e.questions : null });
    }
    expect(days.reduce((n, d) => n + d.questions, 0)).toBe(4);
  });

  it('loads the whole overview for one workspace, with the top sources by answers citing them', async () => {
    const data = await loadOverview(suite.db, f.a, 30);
    expect(data.settings).toEqual({ matchCount: 5, minSimilarity: 0.15 });
    expect(data.topSources.map((t) => [t.source?.label, t.citedIn, t.retrievedIn])).toEqual([
      ['Alpha handbook', 3, 3],
      ['Beta notes', 1, 2],
    ]);
    expect(JSON.stringify(data)).not.toContain(f.bSource.artifactId);
    expect(data.byDay).toHaveLength(30);
  });
});
