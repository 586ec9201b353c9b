import { preferSolved, searchTextOf } from '@brain/answer';
import { EVERYTHING, matchArtifacts, withWorkspace, type Database, type MatchedBy } from '@brain/db';
import { artifactSources } from './queries/artifact-sources.ts';
import type { RetrievalMode, RetrievedSource } from './types.ts';

export interface RetrieveParams {
  workspaceId: string;
  question: string;
  mode: RetrievalMode;
  /** The question's embedding (from the same embedder as ingestion); unused in keyword mode. */
  embedding: readonly number[] | undefined;
  k: number;
  minSimilarity?: number;
}

export interface RankedPassage extends RetrievedSource {
  rank: number;
  chunkId: string;
  artifactId: string;
  similarity: number | null;
  matchedBy: MatchedBy[];
}

/**
 * One question through match_artifacts in one mode, as /ask would run it: hybrid gives both the
 * embedding and the text, vector only the embedding, keyword only the text. Returns the ranked
 * passages with their artifact's URL and file name, for scoring.
 */
export async function retrieveForEval(db: Database, params: RetrieveParams): Promise<RankedPassage[]> {
  if (params.mode !== 'keyword' && !params.embedding) {
    throw new Error(`${params.mode} retrieval needs the question's embedding`);
  }
  return withWorkspace(db, params.workspaceId, async (tx) => {
    const fused = await matchArtifacts(tx, {
      // The eval scores the operator's whole brain.
      audience: EVERYTHING,
      workspaceId: params.workspaceId,
      embedding: params.mode === 'keyword' ? undefined : params.embedding,
      queryText: params.mode === 'vector' ? undefined : searchTextOf(params.question),
      matchCount: params.k,
      minSimilarity: params.minSimilarity ?? 0.15,
    });
    // Hybrid is what /ask searches with, and /ask prefers solved sources after fusion; the legs alone are diagnostics.
    const matches = params.mode === 'hybrid' ? await preferSolved(tx, params.workspaceId, fused) : fused;
    const sources = await artifactSources(tx, matches.map((m) => m.artifactId));
    return matches.map((m, i) => ({
      rank: i + 1,
      chunkId: m.chunkId,
      artifactId: m.artifactId,
      similarity: m.similarity,
      matchedBy: m.matchedBy,
      url: sources.get(m.artifactId)?.url ?? m.url,
      fileName: sources.get(m.artifactId)?.fileName ?? null,
    }));
  });
}
