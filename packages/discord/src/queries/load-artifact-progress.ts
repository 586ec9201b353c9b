import { withWorkspace, type Database } from '@brain/db';

export interface ArtifactProgress {
  id: string;
  title: string | null;
  url: string | null;
  fileName: string | null;
  status: 'queued' | 'indexing' | 'ready' | 'failed';
  passages: number;
  errorCode: string | null;
  errorMessage: string | null;
  /** An ingestion job for it is still queued or running (a retry counts). */
  pending: boolean;
  /** The last failed refresh, when an earlier version kept answering. */
  lastError: { code: string; message: string; at: string } | null;
}

/** Where each saved artifact stands: one query, as the workspace's tenant. */
export async function loadArtifactProgress(db: Database, workspaceId: string, artifactIds: readonly string[]): Promise<ArtifactProgress[]> {
  const rows = await withWorkspace(db, workspaceId, (tx) =>
    tx.query<{
      id: string;
      title: string | null;
      url: string | null;
      file_name: string | null;
      status: ArtifactProgress['status'];
      chunk_count: number;
      error_code: string | null;
      error_message: string | null;
      pending: boolean;
      last_error: ArtifactProgress['lastError'];
    }>(
      `select a.id, a.title, a.url, a.file_name, a.status, a.chunk_count, a.error_code, a.error_message,
              exists (select 1 from jobs j where j.artifact_id = a.id and j.status in ('queued', 'running')) as pending,
              a.metadata -> 'last_error' as last_error
       from artifacts a where a.id = any($1::uuid[])`,
      [`{${artifactIds.join(',')}}`],
    ),
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    url: r.url,
    fileName: r.file_name,
    status: r.status,
    passages: r.chunk_count,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    pending: r.pending,
    lastError: r.last_error ?? null,
  }));
}
