import { audienceParam, isUuid, withWorkspace, type AudienceFilter, type Database } from '@brain/db';

export interface CitedPassage {
  n: number;
  title: string | null;
  url: string | null;
  heading: string | null;
  content: string | null;
}

/**
 * The passages an answer cited, in citation order, from its queries row. Run as the workspace's
 * tenant: a query id of another workspace finds nothing; only sources of `audience` are shown.
 * Undefined when there is no such answer.
 */
export async function loadCitedPassages(db: Database, workspaceId: string, queryId: string, audience: AudienceFilter): Promise<CitedPassage[] | undefined> {
  if (!isUuid(queryId)) return undefined;
  return withWorkspace(db, workspaceId, async (tx) => {
    const [query] = await tx.query<{ id: string }>('select id from queries where id = $1', [queryId]);
    if (!query) return undefined;
    return tx.query<CitedPassage & Record<string, unknown>>(
      `select (c.value ->> 'n')::int as n, a.title, coalesce(c.value ->> 'url', a.url) as url, ch.heading, ch.content
       from queries q
       cross join lateral jsonb_array_elements(q.cited) c
       left join artifacts a on a.id = (c.value ->> 'artifact_id')::uuid
       left join chunks ch on ch.id = (c.value ->> 'chunk_id')::uuid
       where q.id = $1
         -- A passage the clicker may not read is left out, not shown empty: nothing about it is revealed.
         -- One whose source was deleted since shows as removed, as before.
         and (a.id is null or $2::text[] is null or a.audience = any($2::text[]))
       order by (c.value ->> 'n')::int`,
      [queryId, audienceParam(audience)],
    );
  });
}
