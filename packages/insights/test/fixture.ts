import type { Database } from '@brain/db';
import { createWorkspace } from '@brain/db/testing';
import { insertQuestions, insertSources, type SeedQuestion, type SeededSource } from '../src/testing/index.ts';

export { createWorkspace };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Workspace A's known data (the figures the tests expect are worked out by hand from this), and
 * workspace B's, built to disagree with A's on every figure so a leak would show.
 *
 * Sources of A: three ready (2, 3 and 4 passages), one failed, one queued, one forgotten (2 passages, not live).
 * Questions of A, with [passage similarity rank] retrieved and the passages cited:
 *   q1  -1 h   answered 👍  [a1 .82 1] [b1 .55 2] [c1 .31 3]  cites a1   embed 10 search 20 generate 100 total 131
 *   q6  -5 h   answered     [a1 1.0 1]                       cites a1   embed 40 search 50 generate 400 total 491
 *   q2  -2 d   answered 👎  [b2 .61 1] [a2 .42 2]            cites b2 a2 embed 10 search 30 generate 200 total 241
 *   q3  -3 d   unanswered   nothing retrieved                           embed 20 search 10              total 31
 *   q4  -10 d  unanswered   [c2 .18 1]                       cites none embed 30 search 40 generate 300 total 371
 *   q5  -40 d  answered 👍  [a1 .90 1]                       cites a1   (outside a 30-day window)
 */
export interface Fixture {
  a: string;
  b: string;
  now: number;
  sources: { a: SeededSource; b: SeededSource; c: SeededSource };
  q: Record<'q1' | 'q2' | 'q3' | 'q4' | 'q5' | 'q6', string>;
  bQuestions: string[];
  bSource: SeededSource;
}

export async function seedFixture(db: Database, prefix: string): Promise<Fixture> {
  const now = Date.now();
  const a = await createWorkspace(db, `${prefix}-a`);
  const b = await createWorkspace(db, `${prefix}-b`);
  const [sa, sb, sc] = (await insertSources(db, a, [
    { title: 'Alpha handbook', url: 'https://example.com/alpha', passages: 2 },
    { title: 'Beta notes', passages: 3 },
    { title: 'Gamma FAQ', url: 'https://example.com/gamma', passages: 4 },
    { title: 'Broken page', url: 'https://example.com/broken', status: 'failed', errorCode: 'FETCH_TIMEOUT', errorMessage: 'The page took too long.' },
    { title: 'Waiting', status: 'queued' },
    { title: 'Old doc', passages: 2, forgotten: true },
  ])) as [SeededSource, SeededSource, SeededSource];
  const p = (s: SeededSource, i: number, similarity: number, rank: number) => ({ chunk_id: s.chunkIds[i] as string, artifact_id: s.artifactId, similarity, rank });
  const cite = (r: { chunk_id: string; artifact_id: string; rank: number }, n: number) => ({ n, chunk_id: r.chunk_id, artifact_id: r.artifact_id, rank: r.rank });

  const q1r = [p(sa, 0, 0.82, 1), p(sb, 0, 0.55, 2), p(sc, 0, 0.31, 3)];
  const q2r = [p(sb, 1, 0.61, 1), p(sa, 1, 0.42, 2)];
  const q6r = [p(sa, 0, 1.0, 1)];
  const q5r = [p(sa, 0, 0.9, 1)];
  const questions: (SeedQuestion & { key: keyof Fixture['q'] })[] = [
    { key: 'q1', question: 'Where is the alpha handbook?', grounded: true, feedback: 'up', retrieved: q1r, cited: [cite(q1r[0] as (typeof q1r)[0], 1)], latency: { embed: 10, search: 20, generate: 100, total: 131 }, createdAt: new Date(now - HOUR) },
    { key: 'q6', question: 'Exact match question', grounded: true, retrieved: q6r, cited: [cite(q6r[0] as (typeof q6r)[0], 1)], latency: { embed: 40, search: 50, generate: 400, total: 491 }, createdAt: new Date(now - 5 * HOUR) },
    { key: 'q2', question: 'What do the beta notes say?', grounded: true, feedback: 'down', retrieved: q2r, cited: q2r.map(cite), latency: { embed: 10, search: 30, generate: 200, total: 241 }, createdAt: new Date(now - 2 * DAY) },
    { key: 'q3', question: 'Something nobody saved?', grounded: false, latency: { embed: 20, search: 10, total: 31 }, createdAt: new Date(now - 3 * DAY) },
    { key: 'q4', question: 'A weak match?', grounded: false, answerer: 'extractive', retrieved: [p(sc, 1, 0.18, 1)], latency: { embed: 30, search: 40, generate: 300, total: 371 }, createdAt: new Date(now - 10 * DAY) },
    { key: 'q5', question: 'An old question', grounded: true, feedback: 'up', retrieved: q5r, cited: [cite(q5r[0] as (typeof q5r)[0], 1)], latency: { embed: 1, search: 1, generate: 1, total: 3 }, createdAt: new Date(now - 40 * DAY) },
  ];
  const ids = await insertQuestions(db, a, questions);
  const q = Object.fromEntries(questions.map((x, i) => [x.key, ids[i] as string])) as Fixture['q'];

  const [bSource] = (await insertSources(db, b, [{ title: 'B secret plans', passages: 5 }])) as [SeededSource];
  const br = [{ chunk_id: bSource.chunkIds[0] as string, artifact_id: bSource.artifactId, similarity: 0.99, rank: 1 }];
  const bQuestions = await insertQuestions(
    db,
    b,
    Array.from({ length: 5 }, (_, i) => ({
      question: `B question ${i}`,
      grounded: true,
      feedback: 'down' as const,
      retrieved: br,
      cited: [cite(br[0] as (typeof br)[0], 1)],
      latency: { embed: 5000, search: 5000, generate: 5000, total: 15000 },
      createdAt: new Date(now - i * HOUR),
    })),
  );
  return { a, b, now, sources: { a: sa, b: sb, c: sc }, q, bQuestions, bSource };
}
