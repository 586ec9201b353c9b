import type { Queryable } from '../database.ts';
import { searchAudienceParam, type AudienceFilter } from '../audience/audience-filter.ts';
import { toVectorLiteral } from '../vector-literal.ts';

export type MatchedBy = 'vector' | 'keyword';

/** The most passages one match_artifacts call returns, runners-up included (the function refuses more). */
export const MAX_MATCH_COUNT = 50;

export interface MatchArtifactsParams {
  workspaceId: string;
  /** Omit for a keyword-only search. */
  embedding?: ArrayLike<number> | undefined;
  /** Omit for a vector-only search. */
  queryText?: string | undefined;
  matchCount?: number;
  /**
   * Rows past matchCount, in the same fused order (default 0): the first matchCount rows stay
   * those of a call without them, since the candidates per leg and the floor are matchCount's.
   */
  runnersUp?: number;
  minSimilarity?: number;
  /** The audiences this reply may cite; required, so no caller gets the operator's view by leaving it out. */
  audience: AudienceFilter;
}

export interface ArtifactMatch {
  chunkId: string;
  artifactId: string;
  title: string | null;
  url: string | null;
  heading: string | null;
  content: string;
  similarity: number | null;
  vectorRank: number | null;
  keywordRank: number | null;
  score: number;
  matchedBy: MatchedBy[];
}

interface Row extends Record<string, unknown> {
  chunk_id: string;
  artifact_id: string;
  title: string | null;
  url: string | null;
  heading: string | null;
  content: string;
  similarity: number | null;
  vector_rank: number | null;
  keyword_rank: number | null;
  score: number;
  matched_by: MatchedBy[];
}

/** Calls brain.match_artifacts (live definition: supabase/schema.sql). Run it inside withWorkspace. */
export async function matchArtifacts(tx: Queryable, params: MatchArtifactsParams): Promise<ArtifactMatch[]> {
  const rows = await tx.query<Row>(
    'select * from brain.match_artifacts($1::uuid, $2::vector, $3::text, $4::int, $5::float8, $6::text[], $7::int)',
    [
      params.workspaceId,
      params.embedding ? toVectorLiteral(params.embedding) : null,
      params.queryText ?? null,
      params.matchCount ?? 5,
      params.minSimilarity ?? 0.15,
      searchAudienceParam(params.audience),
      params.runnersUp ?? 0,
    ],
  );
  return rows.map((r) => ({
    chunkId: r.chunk_id,
    artifactId: r.artifact_id,
    title: r.title,
    url: r.url,
    heading: r.heading,
    content: r.content,
    similarity: r.similarity === null ? null : Number(r.similarity),
    vectorRank: r.vector_rank,
    keywordRank: r.keyword_rank,
    score: Number(r.score),
    matchedBy: r.matched_by,
  }));
}
