import type { Queryable } from '@brain/db';

export interface ArtifactToIndex {
  id: string;
  workspaceId: string;
  kind: 'url' | 'file' | 'text' | 'discord_message' | 'discord_thread';
  url: string | null;
  title: string | null;
  fileName: string | null;
  mimeType: string | null;
  status: 'queued' | 'indexing' | 'ready' | 'failed';
  contentHash: string | null;
  etag: string | null;
  lastModified: string | null;
  metadata: Record<string, unknown>;
  forgotten: boolean;
  indexedChunks: number;
  indexedModel: string | null;
  body: Buffer | null;
  bodyText: string | null;
}

export async function loadArtifact(tx: Queryable, artifactId: string): Promise<ArtifactToIndex | undefined> {
  const [row] = await tx.query<{
    id: string;
    workspace_id: string;
    kind: ArtifactToIndex['kind'];
    url: string | null;
    title: string | null;
    file_name: string | null;
    mime_type: string | null;
    status: ArtifactToIndex['status'];
    content_hash: string | null;
    etag: string | null;
    last_modified: string | null;
    metadata: Record<string, unknown>;
    forgotten: boolean;
    indexed_chunks: number;
    indexed_model: string | null;
    body: Uint8Array | null;
    body_text: string | null;
  }>(
    `select a.id, a.workspace_id, a.kind, a.url, a.title, a.file_name, coalesce(s.mime_type, a.mime_type) as mime_type,
            a.status, a.content_hash, a.etag, a.last_modified, a.metadata, a.forgotten_at is not null as forgotten,
            (select count(*)::int from chunks c where c.artifact_id = a.id and c.embedding is not null) as indexed_chunks,
            (select min(c.embedding_model) from chunks c where c.artifact_id = a.id) as indexed_model,
            s.body, s.body_text
     from artifacts a left join artifact_sources s on s.artifact_id = a.id
     where a.id = $1`,
    [artifactId],
  );
  if (!row) return undefined;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    kind: row.kind,
    url: row.url,
    title: row.title,
    fileName: row.file_name,
    mimeType: row.mime_type,
    status: row.status,
    contentHash: row.content_hash,
    etag: row.etag,
    lastModified: row.last_modified,
    metadata: row.metadata,
    forgotten: row.forgotten,
    indexedChunks: row.indexed_chunks,
    indexedModel: row.indexed_model,
    body: row.body ? Buffer.from(row.body) : null,
    bodyText: row.body_text,
  };
}
