import type { AudienceFilter, Queryable } from '@brain/db';
import type { FoundBy } from '../types.ts';
import type { AnswererKind, QuerySurface } from '../types.ts';

export interface RetrievedEntry {
  chunk_id: string;
  artifact_id: string;
  similarity: number | null;
  /** Fused rank, 1 = best. */
  rank: number;
  vector_rank: number | null;
  keyword_rank: number | null;
  score: number;
  matched_by: FoundBy[];
  /** Sent to the answerer (false when the context budget dropped it). */
  in_context: boolean;
  /** Sent, but cut by the context budget. */
  truncated: boolean;
}

export interface CitedEntry {
  n: number;
  chunk_id: string;
  artifact_id: string;
  rank: number;
}

/** Milliseconds per stage; a stage that did not run is absent. */
export interface StageLatency {
  embed?: number;
  search?: number;
  /** Reading the best sources' further passages (source-siblings.ts). */
  siblings?: number;
  generate?: number;
  total: number;
}

export interface QueryRecord {
  workspaceId: string;
  question: string;
  answer: string | null;
  grounded: boolean;
  answerer: AnswererKind | 'none';
  model: string | null;
  embeddingModel: string;
  retrieved: RetrievedEntry[];
  cited: CitedEntry[];
  latencyMs: StageLatency;
  trimmed: boolean;
  surface: QuerySurface;
  askedBy: string | null;
  interactionId: string | null;
  errorCode: string | null;
  /** What the answer was allowed to cite, and whether its search asked for the everyone key. */
  audience: AudienceFilter;
  /** The reply said "a private answer may be available". */
  privateHintShown: boolean;
}

/** One queries row per ask. Run inside withWorkspace: the row's policy checks its workspace. */
export async function insertQueryRecord(tx: Queryable, r: QueryRecord): Promise<string> {
  const rows = await tx.query<{ id: string }>(
    `insert into public.queries
       (workspace_id, question, answer, grounded, answerer, model, embedding_model, retrieved, cited,
        latency_ms, trimmed, surface, asked_by, interaction_id, error_code, audience, private_hint_shown)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11, $12, $13, $14, $15, $16::jsonb, $17)
     returning id`,
    [
      r.workspaceId,
      r.question,
      r.answer,
      r.grounded,
      r.answerer,
      r.model,
      r.embeddingModel,
      JSON.stringify(r.retrieved),
      JSON.stringify(r.cited),
      JSON.stringify(r.latencyMs),
      r.trimmed,
      r.surface,
      r.askedBy,
      r.interactionId,
      r.errorCode,
      JSON.stringify(recordedAudience(r.audience)),
      r.privateHintShown,
    ],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('insert into queries returned no id');
  return id;
}

/**
 * queries.audience: the keys, and `everyone: true` when the search asked match_artifacts for the
 * everyone key (the flags followed the facts the reply judged by), so the share of real traffic
 * that path serves can be read. match_artifacts answers such a call by the same keys should the
 * flags have started to lag in between (a facts change within the ask): rare, and not recorded.
 */
function recordedAudience(audience: AudienceFilter): Record<string, unknown> {
  if (audience.kind === 'everything') return { kind: 'everything' };
  return { kind: 'keys', keys: [...audience.keys], ...(audience.everyone ? { everyone: true } : {}) };
}
