import type { Queryable } from '@brain/db';

export interface SimilarityBin {
  /** Lower edge (inclusive); the last bin also holds 1.0. */
  from: number;
  to: number;
  retrieved: number;
  /** Of those, passages the answer cited. */
  cited: number;
}

export const SIMILARITY_BINS = 20;

/**
 * How similar the passages retrieved over the window were to their questions, in bins of 0.05,
 * with the cited ones counted apart: where cited passages sit tells an operator where the
 * similarity floor can go. Passages without a similarity (keyword-only) are left out.
 */
export async function similarityHistogram(tx: Queryable, workspaceId: string, days: number): Promise<SimilarityBin[]> {
  const rows = await tx.query<{ bin: number; retrieved: number; cited: number }>(
    `select least(greatest(floor((e->>'similarity')::float8 * $3)::int, 0), $3 - 1) as bin,
            count(*)::int as retrieved,
            count(*) filter (where q.cited @> jsonb_build_array(jsonb_build_object('chunk_id', e->'chunk_id')))::int as cited
     from queries q cross join lateral jsonb_array_elements(q.retrieved) e
     where q.workspace_id = $1 and q.created_at >= now() - make_interval(days => $2)
       and jsonb_typeof(e->'similarity') = 'number'
     group by 1`,
    [workspaceId, days, SIMILARITY_BINS],
  );
  const byBin = new Map(rows.map((r) => [r.bin, r]));
  return Array.from({ length: SIMILARITY_BINS }, (_, i) => ({
    from: i / SIMILARITY_BINS,
    to: (i + 1) / SIMILARITY_BINS,
    retrieved: byBin.get(i)?.retrieved ?? 0,
    cited: byBin.get(i)?.cited ?? 0,
  }));
}
