import type { Queryable } from '@brain/db';

export interface ArtifactSource {
  url: string | null;
  fileName: string | null;
}

/** URL and file name of each artifact, by id. Run inside withWorkspace. */
export async function artifactSources(tx: Queryable, artifactIds: readonly string[]): Promise<Map<string, ArtifactSource>> {
  if (artifactIds.length === 0) return new Map();
  const rows = await tx.query<{ id: string; url: string | null; file_name: string | null }>(
    'select id, url, file_name from public.artifacts where id = any($1::uuid[])',
    [`{${[...new Set(artifactIds)].join(',')}}`],
  );
  return new Map(rows.map((r) => [r.id, { url: r.url, fileName: r.file_name }]));
}
