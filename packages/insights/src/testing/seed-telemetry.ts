import { randomUUID } from 'node:crypto';
import { withService, type Database } from '@brain/db';

/** One queries row as ask() writes it (packages/answer), for tests and the benchmark. */
export interface SeedQuestion {
  question: string;
  answer?: string | null;
  grounded: boolean;
  answerer?: 'llm' | 'extractive' | 'none';
  model?: string | null;
  retrieved?: {
    chunk_id: string;
    artifact_id: string;
    similarity: number | null;
    rank: number;
    matched_by?: string[];
    keyword_rank?: number | null;
  }[];
  cited?: { n: number; chunk_id: string; artifact_id: string; rank: number }[];
  latency?: { embed?: number; search?: number; generate?: number; total: number };
  surface?: 'discord' | 'playground' | 'cli' | 'mcp' | 'dashboard' | 'eval';
  feedback?: 'up' | 'down' | null;
  createdAt?: Date;
}

const BATCH = 500;

/** Inserts questions for one workspace in batches (as service_role: seeding, not tenant work). Returns their ids in order. */
export async function insertQuestions(db: Database, workspaceId: string, questions: readonly SeedQuestion[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < questions.length; i += BATCH) {
    const batch = questions.slice(i, i + BATCH).map((q) => ({
      id: randomUUID(),
      question: q.question,
      answer: q.answer ?? (q.grounded ? `An answer to: ${q.question} [1]` : 'No grounded sources found. Try `/save` first.'),
      grounded: q.grounded,
      answerer: q.answerer ?? (q.grounded ? 'extractive' : 'none'),
      model: q.model ?? (q.grounded ? 'extractive-v1' : null),
      retrieved: (q.retrieved ?? []).map((r) => ({
        vector_rank: r.rank,
        keyword_rank: null,
        score: 1 / (20 + r.rank),
        in_context: true,
        truncated: false,
        matched_by: ['vector'],
        ...r,
      })),
      cited: q.cited ?? [],
      latency_ms: q.latency ?? { total: 0 },
      surface: q.surface ?? 'discord',
      feedback: q.feedback ?? null,
      created_at: (q.createdAt ?? new Date()).toISOString(),
    }));
    await withService(db, (tx) =>
      tx.query(
        `insert into queries (id, workspace_id, question, answer, grounded, answerer, model, embedding_model, retrieved, cited, latency_ms, surface, feedback, created_at)
         select r.id, $1, r.question, r.answer, r.grounded, r.answerer, r.model, 'local-hash-1536', r.retrieved, r.cited, r.latency_ms, r.surface, r.feedback, r.created_at
         from jsonb_to_recordset($2::jsonb) as r(id uuid, question text, answer text, grounded boolean, answerer text, model text,
           retrieved jsonb, cited jsonb, latency_ms jsonb, surface text, feedback text, created_at timestamptz)`,
        [workspaceId, JSON.stringify(batch)],
      ),
    );
    ids.push(...batch.map((r) => r.id));
  }
  return ids;
}
