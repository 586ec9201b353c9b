// The fusion of match_artifacts restated in TypeScript over prefetched legs (fusion-legs.ts), so
// that candidates can be measured on a tune half without a migration per try.
import { scoreQuestion } from '@brain/eval';

export interface Candidate {
  artifactId: string;
  sim: number;
  url: string | null;
  fileName: string | null;
}

export interface QuestionLegs {
  id: string;
  kind: string;
  split: 'tune' | 'test' | null;
  question: string;
  expected: readonly string[];
  /** Chunk ids, nearest first. */
  vector: string[];
  /** Chunk ids with ts_rank, best first. */
  keyword: { id: string; rank: number }[];
  candidates: Record<string, Candidate>;
  /** The question's lexemes and how many live passages hold each. */
  lexemes: { lexeme: string; df: number }[];
  /** Live passages of the workspace (copied from the file when loaded). */
  passages?: number;
}

export interface LegsFile {
  model: string;
  workspace: string;
  depth: number;
  passages: number;
  questions: QuestionLegs[];
}

export interface Fusion {
  name: string;
  /** Passages each leg contributes. */
  depth: number;
  /** A fused score per candidate (higher first); undefined drops it. */
  score(q: QuestionLegs, id: string, ranks: { v: number | null; k: number | null; kRank: number | null; kMax: number }): number | undefined;
  /** Which candidates pass the floor. */
  keep?(q: QuestionLegs, id: string, ranks: { v: number | null; k: number | null }, matchCount: number): boolean;
  decay?: number;
}

export const FLOOR = 0.15;

/** Fused, floored, per-source-discounted and ordered the way match_artifacts returns them. */
export function fuse(legs: QuestionLegs, f: Fusion, mode: 'hybrid' | 'vector' | 'keyword', matchCount = 5): Candidate[] {
  // Keyword mode has no question embedding: no similarity to score or order by.
  const q =
    mode === 'keyword'
      ? { ...legs, candidates: Object.fromEntries(Object.entries(legs.candidates).map(([id, c]) => [id, { ...c, sim: 0 }])) }
      : legs;
  const vector = mode === 'keyword' ? [] : q.vector.slice(0, f.depth);
  const keyword = mode === 'vector' ? [] : q.keyword.slice(0, f.depth);
  const vRank = new Map(vector.map((id, i) => [id, i + 1]));
  const kRank = new Map(keyword.map((r, i) => [r.id, i + 1]));
  const kScore = new Map(keyword.map((r) => [r.id, r.rank]));
  const kMax = keyword[0]?.rank ?? 0;
  const decay = f.decay ?? 0.7;
  const rows: { id: string; c: Candidate; score: number }[] = [];
  for (const id of new Set([...vector, ...keyword.map((r) => r.id)])) {
    const c = q.candidates[id];
    if (!c) continue;
    const v = vRank.get(id) ?? null;
    const k = kRank.get(id) ?? null;
    const keep = mode === 'keyword' ? true : f.keep ? f.keep(q, id, { v, k }, matchCount) : c.sim >= FLOOR || (k !== null && k <= matchCount);
    if (!keep) continue;
    const score = f.score(q, id, { v, k, kRank: kScore.get(id) ?? null, kMax });
    if (score === undefined) continue;
    rows.push({ id, c, score });
  }
  // The n-th passage of one source counts decay^(n-1) of its score.
  const byArtifact = new Map<string, typeof rows>();
  for (const r of [...rows].sort((a, b) => b.score - a.score || b.c.sim - a.c.sim || (a.id < b.id ? -1 : 1))) {
    const list = byArtifact.get(r.c.artifactId) ?? [];
    list.push(r);
    byArtifact.set(r.c.artifactId, list);
  }
  const discounted = [...byArtifact.values()].flatMap((list) => list.map((r, n) => ({ ...r, score: r.score * decay ** n })));
  discounted.sort((a, b) => b.score - a.score || b.c.sim - a.c.sim || (a.id < b.id ? -1 : 1));
  return discounted.slice(0, matchCount).map((r) => r.c);
}

export function measure(questions: readonly QuestionLegs[], f: Fusion, mode: 'hybrid' | 'vector' | 'keyword', k = 5): { recall: number; mrr: number; misses: string[] } {
  let hits = 0;
  let rr = 0;
  const misses: string[] = [];
  for (const q of questions) {
    const ranked = fuse(q, f, mode, k);
    const s = scoreQuestion({ id: q.id, kind: q.kind, expected_sources: q.expected }, mode, ranked, k);
    if (s.hit) hits++;
    else misses.push(q.id);
    rr += s.reciprocalRank;
  }
  return { recall: hits / questions.length, mrr: rr / questions.length, misses };
}


/** Today's: RRF 60 over both legs, the keyword leg's top match_count past the floor. */
export function rrf(k = 60, wv = 1, wk = 1, depth = 40): Fusion {
  return {
    name: `rrf k=${k} wv=${wv} wk=${wk} depth=${depth}`,
    depth,
    score: (_q, _id, r) => (r.v ? wv / (k + r.v) : 0) + (r.k ? wk / (k + r.k) : 0),
  };
}
