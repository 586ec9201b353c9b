import { isUuid, type Queryable } from '@brain/db';

export interface SourceLabel {
  id: string;
  /** What to call it: its title, else its file name or URL. */
  label: string;
  url: string | null;
  forgotten: boolean;
}

/** Names for the sources a page mentions (retrieved passages, top sources), in one query. */
export async function sourceLabels(tx: Queryable, workspaceId: string, artifactIds: readonly string[]): Promise<Map<string, SourceLabel>> {
  const ids = [...new Set(artifactIds)].filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await tx.query<{ id: string; label: string; url: string | null; forgotten: boolean }>(
    `select a.id::text, coalesce(nullif(a.title, ''), a.file_name, a.url, 'Untitled ' || a.kind) as label, a.url,
            a.forgotten_at is not null as forgotten
     from artifacts a where a.workspace_id = $1 and a.id = any($2::uuid[])`,
    [workspaceId, `{${ids.join(',')}}`],
  );
  return new Map(rows.map((r) => [r.id, { id: r.id, label: r.label, url: r.url, forgotten: r.forgotten }]));
}
