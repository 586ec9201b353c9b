import type { Queryable } from '@brain/db';
import { firstDay } from '../window.ts';

export interface TopSource {
  artifactId: string;
  /** Answers over the window that cited it. */
  citedIn: number;
  /** Questions over the window that retrieved at least one of its passages. */
  retrievedIn: number;
}

/** The sources answers lean on most over the window, by how many answers cited them (from the daily rollup). */
export async function topSources(tx: Queryable, workspaceId: string, days: number, limit = 8): Promise<TopSource[]> {
  const rows = await tx.query<{ artifact_id: string; cited_in: number; retrieved_in: number }>(
    `select s.artifact_id::text, sum(s.cited_in)::int as cited_in, sum(s.retrieved_in)::int as retrieved_in
     from query_source_day_stats s
     where s.workspace_id = $1 and s.day >= ${firstDay('$2')}
     group by s.artifact_id
     having sum(s.cited_in) > 0
     order by 2 desc, 3 desc, 1
     limit $3`,
    [workspaceId, days, limit],
  );
  return rows.map((r) => ({ artifactId: r.artifact_id, citedIn: r.cited_in, retrievedIn: r.retrieved_in }));
}
