import type { Queryable } from '@brain/db';
import { firstDay } from '../window.ts';

export interface SimilarityBin {
  /** Lower edge (inclusive); the last bin also holds 1.0. */
  from: number;
  to: number;
  retrieved: number;
  /** Of those, passages the answer cited. */
  cited: number;
}

/** As in query_day_stats (20 bins of 0.05). */
export const SIMILARITY_BINS = 20;

/**
 * How similar the passages retrieved over the window were to their questions, in bins of 0.05,
 * with the cited ones counted apart: where cited passages sit tells an operator where the
 * similarity floor can go. Passages without a similarity (keyword-only) are left out.
 */
export async function similarityHistogram(tx: Queryable, workspaceId: string, days: number): Promise<SimilarityBin[]> {
  // The rollup keeps 20 bins per day (index 1 = [0, 0.05)); summed here over the window's days.
  const rows = await tx.query<{ bin: number; retrieved: number; cited: number }>(
    `select u.i::int - 1 as bin, sum(u.retrieved)::int as retrieved, sum(u.cited)::int as cited
     from query_day_stats d cross join lateral unnest(d.retrieved_bins, d.cited_bins) with ordinality as u(retrieved, cited, i)
     where d.workspace_id = $1 and d.day >= ${firstDay('$2')}
     group by 1`,
    [workspaceId, days],
  );
  const byBin = new Map(rows.map((r) => [r.bin, r]));
  return Array.from({ length: SIMILARITY_BINS }, (_, i) => ({
    from: i / SIMILARITY_BINS,
    to: (i + 1) / SIMILARITY_BINS,
    retrieved: byBin.get(i)?.retrieved ?? 0,
    cited: byBin.get(i)?.cited ?? 0,
  }));
}
