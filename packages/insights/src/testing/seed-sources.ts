import { randomUUID } from 'node:crypto';
import { withService, type Database } from '@brain/db';

export interface SeedSource {
  title: string;
  url?: string | null;
  status?: 'queued' | 'indexing' | 'ready' | 'failed';
  errorCode?: string;
  errorMessage?: string;
  /** Live passages (ready sources only). */
  passages?: number;
  forgotten?: boolean;
  createdAt?: Date;
}

export interface SeededSource {
  artifactId: string;
  chunkIds: string[];
}

/**
 * Sources as the worker leaves them: artifacts with their status and live, embedded passages
 * (random unit-ish vectors made by the database). As service_role, for tests and the benchmark.
 */
export async function insertSources(db: Database, workspaceId: string, sources: readonly SeedSource[]): Promise<SeededSource[]> {
  const planned = sources.map((s) => {
    const status = s.status ?? 'ready';
    const passages = status === 'ready' ? (s.passages ?? 3) : 0;
    return {
      id: randomUUID(),
      title: s.title,
      url: s.url ?? null,
      status,
      error_code: status === 'failed' ? (s.errorCode ?? 'FETCH_FAILED') : null,
      error_message: status === 'failed' ? (s.errorMessage ?? 'The page could not be fetched.') : null,
      chunk_count: passages,
      forgotten: s.forgotten ?? false,
      created_at: (s.createdAt ?? new Date()).toISOString(),
      chunk_ids: Array.from({ length: passages }, () => randomUUID()),
    };
  });
  await withService(db, async (tx) => {
    await tx.query(
      `insert into artifacts (id, workspace_id, kind, source_key, url, title, status, error_code, error_message, chunk_count,
         indexed_at, forgotten_at, created_at)
       select r.id, $1, case when r.url is null then 'text' else 'url' end, 'seed:' || r.id, r.url, r.title, r.status, r.error_code,
         r.error_message, r.chunk_count, case when r.status = 'ready' then r.created_at end,
         case when r.forgotten then now() end, r.created_at
       from jsonb_to_recordset($2::jsonb) as r(id uuid, url text, title text, status text, error_code text, error_message text,
         chunk_count int, forgotten boolean, created_at timestamptz)`,
      [workspaceId, JSON.stringify(planned)],
    );
    const chunks = planned.flatMap((p) => p.chunk_ids.map((id, i) => ({ id, artifact_id: p.id, ordinal: i, title: p.title, live: !p.forgotten })));
    for (let i = 0; i < chunks.length; i += 500) {
      await tx.query(
        `insert into chunks (id, workspace_id, artifact_id, ordinal, heading, content, content_hash, embedding, embedding_model, is_live)
         select c.id, $1, c.artifact_id, c.ordinal, c.title, 'Passage ' || c.ordinal || ' of ' || c.title || '.', md5(c.id::text),
           (select array_agg(random() - 0.5)::vector from generate_series(1, 1536) where c.id is not null), 'local-hash-1536', c.live
         from jsonb_to_recordset($2::jsonb) as c(id uuid, artifact_id uuid, ordinal int, title text, live boolean)`,
        [workspaceId, JSON.stringify(chunks.slice(i, i + 500))],
      );
    }
  });
  return planned.map((p) => ({ artifactId: p.id, chunkIds: p.chunk_ids }));
}
