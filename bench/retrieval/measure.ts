import type { Database } from '@brain/db';
import type { BenchQuery } from './queries.ts';
import { seededRandom } from './random.ts';
import type { Variant } from './variants.ts';

export interface Sample {
  query: BenchQuery;
  ids: string[];
  /** The statement alone. */
  ms: number;
  /** BEGIN, the tenant settings, the statement and COMMIT. */
  transactionMs: number;
}

export interface Summary {
  queries: number;
  workspaces: number;
  /** Share of the queries with at least one passage above the similarity floor (exact search). */
  answerable: number;
  recall: number;
  /** The lowest per-workspace mean recall in the group. */
  worstWorkspaceRecall: number;
  p50: number;
  p95: number;
  mean: number;
  transactionP50: number;
}

/**
 * Runs every variant on every query twice: an untimed pass that warms the caches, then a timed
 * pass. Queries come in a shuffled order, and on each query the variants take turns in a shuffled
 * order too: a burst of load from another process on this shared machine lands on all of them
 * alike, and no variant always runs right after the one that warmed the same pages (or after the
 * one that evicted them: shared_buffers is smaller than the index at 200,000 passages).
 */
export async function measure(db: Database, queries: BenchQuery[], variants: Variant[], seed: number): Promise<Map<string, Sample[]>> {
  const random = seededRandom(seed);
  const order = random.shuffle(queries);
  for (const query of order) for (const variant of random.shuffle(variants)) await variant.run(db, query);
  const samples = new Map<string, Sample[]>(variants.map((v) => [v.name, []]));
  for (const query of order) {
    for (const variant of random.shuffle(variants)) {
      const result = await variant.run(db, query);
      samples.get(variant.name)?.push({ query, ...result });
    }
  }
  return samples;
}

/** Share of the exact top 5 that a variant returned (1 when nothing passes the floor and nothing was returned). */
export function recallOf(ids: string[], truth: string[]): number {
  if (truth.length === 0) return ids.length === 0 ? 1 : 0;
  const found = new Set(ids);
  return truth.filter((id) => found.has(id)).length / truth.length;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length)); // nearest rank
  return sorted[rank - 1] as number;
}

const round = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits;

export function summarize(samples: Sample[], truthOf: (q: BenchQuery) => string[] | null = (q) => q.truth): Summary {
  const withTruth = samples.filter((s) => truthOf(s.query) !== null);
  const recalls = withTruth.map((s) => recallOf(s.ids, truthOf(s.query) as string[]));
  const byWorkspace = new Map<string, number[]>();
  withTruth.forEach((s, i) => {
    const list = byWorkspace.get(s.query.workspaceId) ?? [];
    list.push(recalls[i] as number);
    byWorkspace.set(s.query.workspaceId, list);
  });
  const workspaceMeans = [...byWorkspace.values()].map((r) => r.reduce((a, b) => a + b, 0) / r.length);
  const ms = samples.map((s) => s.ms);
  return {
    queries: samples.length,
    workspaces: new Set(samples.map((s) => s.query.workspaceId)).size,
    answerable: round(withTruth.filter((s) => (truthOf(s.query) as string[]).length > 0).length / Math.max(1, withTruth.length), 3),
    recall: round(recalls.reduce((a, b) => a + b, 0) / Math.max(1, recalls.length), 4),
    worstWorkspaceRecall: round(workspaceMeans.length ? Math.min(...workspaceMeans) : Number.NaN, 4),
    p50: round(percentile(ms, 50), 2),
    p95: round(percentile(ms, 95), 2),
    mean: round(ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length), 2),
    transactionP50: round(percentile(samples.map((s) => s.transactionMs), 50), 2),
  };
}
