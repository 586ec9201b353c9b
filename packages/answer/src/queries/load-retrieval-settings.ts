import type { Queryable } from '@brain/db';

export interface RetrievalSettings {
  matchCount: number;
  minSimilarity: number;
}

/** The workspace's own k and similarity floor. Run inside withWorkspace: RLS shows only its row. */
export async function loadRetrievalSettings(tx: Queryable, workspaceId: string): Promise<RetrievalSettings | undefined> {
  const rows = await tx.query<{ match_count: number; min_similarity: number }>(
    'select match_count, min_similarity from public.workspaces where id = $1',
    [workspaceId],
  );
  const row = rows[0];
  return row ? { matchCount: Number(row.match_count), minSimilarity: Number(row.min_similarity) } : undefined;
}
