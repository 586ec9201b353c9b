import { randomUUID } from 'node:crypto';
import { toVectorLiteral, withService, withWorkspace, type Database } from '@brain/db';
import type { Embedder } from '@brain/embeddings';
import { createLogger, type Logger } from '@brain/observability';
import type { CitedEntry, RetrievedEntry } from '../src/queries/insert-query-record.ts';

export interface SeedDoc {
  title: string;
  url?: string;
  heading?: string;
  passages: string[];
}

export interface SeededDoc {
  artifactId: string;
  chunkIds: string[];
}

export { createWorkspace } from '@brain/db/testing';

/**
 * Saved sources as ingestion leaves them: a ready artifact, and live chunks embedded by `embedder`
 * (the same one ask() gets, as in production). Inserted as the tenant, so RLS checks every row.
 */
export async function seedDocs(db: Database, workspaceId: string, embedder: Embedder, docs: SeedDoc[]): Promise<SeededDoc[]> {
  const out: SeededDoc[] = [];
  for (const doc of docs) {
    const heading = doc.heading ?? doc.title;
    const vectors = await embedder.embed(doc.passages.map((p) => `${heading}\n${p}`));
    const seeded = await withWorkspace(db, workspaceId, async (tx) => {
      const artifactId = randomUUID();
      await tx.query(
        `insert into artifacts (id, workspace_id, kind, source_key, title, url, status, chunk_count)
         values ($1, $2, 'url', $3, $4, $5, 'ready', $6)`,
        [artifactId, workspaceId, `seed:${artifactId}`, doc.title, doc.url ?? `https://docs.example.com/${artifactId}`, doc.passages.length],
      );
      const chunkIds: string[] = [];
      for (const [ordinal, content] of doc.passages.entries()) {
        const rows = await tx.query<{ id: string }>(
          `insert into chunks (workspace_id, artifact_id, ordinal, heading, content, content_hash, embedding, embedding_model, is_live)
           values ($1, $2, $3, $4, $5, md5($5), $6::vector, $7, true) returning id`,
          [workspaceId, artifactId, ordinal, heading, content, toVectorLiteral(vectors[ordinal] ?? []), embedder.model],
        );
        chunkIds.push((rows[0] as { id: string }).id);
      }
      return { artifactId, chunkIds };
    });
    out.push(seeded);
  }
  return out;
}

export interface QueryRow extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  question: string;
  answer: string | null;
  grounded: boolean;
  answerer: string;
  model: string | null;
  embedding_model: string | null;
  retrieved: RetrievedEntry[];
  cited: CitedEntry[];
  latency_ms: Record<string, number>;
  trimmed: boolean;
  surface: string;
  asked_by: string | null;
  interaction_id: string | null;
  feedback: string | null;
  error_code: string | null;
}

export async function queryRows(db: Database, workspaceId: string): Promise<QueryRow[]> {
  return withService(db, (tx) =>
    tx.query<QueryRow>('select * from queries where workspace_id = $1 order by created_at, id', [workspaceId]),
  );
}

/** A real logger whose JSON lines are kept for assertions instead of printed. */
export function testLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = { write: (line: string) => void chunks.push(line) };
  const logger = createLogger({ level: 'debug', destination });
  return { logger, lines: () => chunks.map((c) => JSON.parse(c) as Record<string, unknown>) };
}
