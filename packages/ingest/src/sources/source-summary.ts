export interface SourceSummary {
  id: string;
  kind: 'url' | 'file' | 'text' | 'discord_message' | 'discord_thread';
  title: string | null;
  url: string | null;
  fileName: string | null;
  status: 'queued' | 'indexing' | 'ready' | 'failed';
  errorCode: string | null;
  errorMessage: string | null;
  passages: number;
  savedBy: string | null;
  createdAt: Date;
  indexedAt: Date | null;
  forgottenAt: Date | null;
  /** 'workspace', 'channel:<id>' or 'unknown' (saved from Discord before audiences were recorded). */
  audience: string;
}

/** Forgotten sources can be restored for this long; the sweeper deletes them afterwards. */
export const FORGET_RETENTION_DAYS = 30;

export const SOURCE_COLUMNS = `a.id, a.kind, a.title, a.url, a.file_name, a.status, a.error_code, a.error_message,
  a.chunk_count, a.saved_by, a.created_at, a.indexed_at, a.forgotten_at, a.audience`;

export interface SourceRow extends Record<string, unknown> {
  id: string;
  kind: SourceSummary['kind'];
  title: string | null;
  url: string | null;
  file_name: string | null;
  status: SourceSummary['status'];
  error_code: string | null;
  error_message: string | null;
  chunk_count: number;
  saved_by: string | null;
  created_at: Date;
  indexed_at: Date | null;
  forgotten_at: Date | null;
  audience: string;
}

export function toSourceSummary(row: SourceRow): SourceSummary {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    url: row.url,
    fileName: row.file_name,
    status: row.status,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    passages: row.chunk_count,
    savedBy: row.saved_by,
    createdAt: new Date(row.created_at),
    indexedAt: row.indexed_at ? new Date(row.indexed_at) : null,
    forgottenAt: row.forgotten_at ? new Date(row.forgotten_at) : null,
    audience: row.audience,
  };
}
