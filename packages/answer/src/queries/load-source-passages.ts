import { audienceParam, type ArtifactMatch, type AudienceFilter, type Queryable } from '@brain/db';

/** A passage as a search returns it, without the search's own figures. */
export type SourcePassage = Pick<ArtifactMatch, 'chunkId' | 'artifactId' | 'title' | 'url' | 'heading' | 'content'>;

/**
 * The live passages of a few sources in which a word starts with one of `prefixes`, that this
 * reply's audience may see, other than those already retrieved: the `limit` that hold the most
 * of them, in a stable order, those with a line matching one of `termLines` (PostgreSQL regular
 * expressions: an option's term line) before all others. Prefixes rather than PostgreSQL's
 * full-text match, whose parser reads `name.txt` as one file-name token where the answerer reads
 * `name` and `txt`. Run inside withWorkspace.
 */
export async function loadSourcePassages(
  tx: Queryable,
  input: { workspaceId: string; audience: AudienceFilter; artifactIds: readonly string[]; exceptChunkIds: readonly string[]; prefixes: readonly string[]; termLines?: readonly string[]; limit: number },
): Promise<SourcePassage[]> {
  // Letters, digits and underscores only (the answerer's terms), so none is a regex operator.
  const patterns = input.prefixes.filter((p) => /^[\p{L}\p{N}_]+$/u.test(p)).map((p) => `\\m${p}`);
  const termLines = input.termLines ?? [];
  if (input.artifactIds.length === 0 || patterns.length + termLines.length === 0) return [];
  const rows = await tx.query<{ chunk_id: string; artifact_id: string; title: string | null; url: string | null; heading: string | null; content: string }>(
    `select s.chunk_id, s.artifact_id, a.title, a.url, s.heading, s.content
     from (
       select c.id as chunk_id, c.artifact_id, c.ordinal, c.heading, c.content,
              (select count(*) from unnest($5::text[]) as p(pattern)
               where c.content ~* p.pattern or coalesce(c.heading, '') ~* p.pattern) as hits,
              (select count(*) from unnest($7::text[]) as t(pattern) where c.content ~* t.pattern) as term_lines
       from public.chunks c
       where c.workspace_id = $1 and c.is_live and c.artifact_id = any($2::uuid[])
         and not (c.id = any($3::uuid[]))
         and ($4::text[] is null or c.audience = any($4::text[]))
     ) s
     join public.artifacts a on a.id = s.artifact_id and a.workspace_id = $1
     where s.hits > 0 or s.term_lines > 0
     -- Ties in page order, best source first: ids are random, and an answer must not change with them.
     order by s.term_lines desc, s.hits desc, array_position($2::uuid[], s.artifact_id), s.ordinal
     limit $6`,
    [input.workspaceId, input.artifactIds, input.exceptChunkIds, audienceParam(input.audience), patterns, input.limit, termLines],
  );
  return rows.map((r) => ({ chunkId: r.chunk_id, artifactId: r.artifact_id, title: r.title, url: r.url, heading: r.heading, content: r.content }));
}
