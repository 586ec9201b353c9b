import type { Queryable } from '@brain/db';

export interface TopSource {
  artifactId: string;
  /** Answers over the window that cited it. */
  citedIn: number;
  /** Questions over the window that retrieved at least one of its passages. */
  retrievedIn: number;
}

/** The sources answers lean on most over the window, by how many answers cited them. */
export async function topSources(tx: Queryable, workspaceId: string, days: number, limit = 8): Promise<TopSource[]> {
  const rows = await tx.query<{ artifact_id: string; cited_in: number; retrieved_in: number }>(
    `with recent as (
       select q.id, q.retrieved, q.cited from queries q
       where q.workspace_id = $1 and q.created_at >= now() - make_interval(days => $2)
     ), cited as (
       select c->>'artifact_id' as artifact_id, count(distinct r.id)::int as n
       from recent r cross join lateral jsonb_array_elements(r.cited) c group by 1
     ), retrieved as (
       select e->>'artifact_id' as artifact_id, count(distinct r.id)::int as n
       from recent r cross join lateral jsonb_array_elements(r.retrieved) e group by 1
     )
     select c.artifact_id, c.n as cited_in, coalesce(t.n, c.n) as retrieved_in
     from cited c left join retrieved t using (artifact_id)
     where c.artifact_id is not null
     order by c.n desc, coalesce(t.n, c.n) desc, c.artifact_id
     limit $3`,
    [workspaceId, days, limit],
  );
  return rows.map((r) => ({ artifactId: r.artifact_id, citedIn: r.cited_in, retrievedIn: r.retrieved_in }));
}
