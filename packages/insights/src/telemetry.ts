/**
 * The queries row's JSON columns as the dashboard reads them. Written by ask() (packages/answer);
 * read defensively here, since rows outlive the code that wrote them: a missing or odd field
 * becomes null, never an exception on a page.
 */
export interface RetrievedPassage {
  chunkId: string;
  artifactId: string;
  similarity: number | null;
  /** Fused rank in that request, 1 = best. */
  rank: number;
  matchedBy: string[];
  /** Sent to the answerer (false when the context budget dropped it). */
  inContext: boolean;
}

export interface CitedPassage {
  n: number;
  chunkId: string;
  artifactId: string;
  rank: number | null;
}

export interface StageLatency {
  embed: number | null;
  search: number | null;
  generate: number | null;
  total: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);

export function parseRetrieved(value: unknown): RetrievedPassage[] {
  return arr(value).map((raw, i) => {
    const e = obj(raw);
    return {
      chunkId: str(e.chunk_id),
      artifactId: str(e.artifact_id),
      similarity: num(e.similarity),
      rank: num(e.rank) ?? i + 1,
      matchedBy: arr(e.matched_by).filter((m): m is string => typeof m === 'string'),
      inContext: e.in_context !== false,
    };
  });
}

export function parseCited(value: unknown): CitedPassage[] {
  return arr(value).map((raw, i) => {
    const e = obj(raw);
    return { n: num(e.n) ?? i + 1, chunkId: str(e.chunk_id), artifactId: str(e.artifact_id), rank: num(e.rank) };
  });
}

export function parseLatency(value: unknown): StageLatency {
  const e = obj(value);
  return { embed: num(e.embed), search: num(e.search), generate: num(e.generate), total: num(e.total) };
}
