import { loadRetrievalSettings } from '@brain/answer';
import { EMBEDDING_DIMENSIONS, matchArtifacts, sqlState, withWorkspace, type ArtifactMatch, type AudienceFilter, type Database } from '@brain/db';
import type { Embedder } from '@brain/embeddings';
import { AppError, isAppError } from '@brain/errors';

const EMBED_TIMEOUT_MS = 15_000;
const SEARCH_TIMEOUT_MS = 10_000;

export interface PassageSearch {
  matches: ArtifactMatch[];
  /** The workspace's similarity floor the search applied. */
  minSimilarity: number;
}

/**
 * The question's passages, found as /ask finds them: embedded by the ingestion embedder, then
 * match_artifacts (hybrid) with the workspace's similarity floor, as the workspace's tenant.
 * `limit` is the caller's; without one, the workspace's own k.
 */
export async function searchPassages(
  deps: { db: Database; embedder: Embedder },
  workspaceId: string,
  query: string,
  options: { limit?: number | undefined; maxLimit: number; signal?: AbortSignal | undefined; audience: AudienceFilter },
): Promise<PassageSearch> {
  const embedding = await embedQuery(deps.embedder, query, options.signal);
  try {
    return await withWorkspace(deps.db, workspaceId, async (tx) => {
      await tx.query("select set_config('statement_timeout', $1, true)", [`${SEARCH_TIMEOUT_MS}ms`]);
      const settings = await loadRetrievalSettings(tx, workspaceId);
      if (!settings) {
        throw new AppError({ code: 'WORKSPACE_NOT_FOUND', message: `No workspace ${workspaceId}.`, userMessage: 'This token\'s workspace no longer exists.', nextStep: 'Ask the workspace owner for a new token.', httpStatus: 404 });
      }
      const matches = await matchArtifacts(tx, {
        audience: options.audience,
        workspaceId,
        embedding,
        queryText: query,
        matchCount: Math.min(options.limit ?? settings.matchCount, options.maxLimit),
        minSimilarity: settings.minSimilarity,
      });
      return { matches, minSimilarity: settings.minSimilarity };
    });
  } catch (error) {
    if (sqlState(error) === '57014') {
      throw new AppError({ code: 'SEARCH_TIMEOUT', message: `Searching took longer than ${SEARCH_TIMEOUT_MS} ms.`, userMessage: 'Searching the saved sources took too long.', nextStep: 'Try the same call again in a minute.', retryable: true, httpStatus: 504, cause: error });
    }
    throw error;
  }
}

async function embedQuery(embedder: Embedder, query: string, signal: AbortSignal | undefined): Promise<number[]> {
  const timeout = AbortSignal.timeout(EMBED_TIMEOUT_MS);
  let vector: number[] | undefined;
  try {
    [vector] = await embedder.embed([query], { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new AppError({
      code: timeout.aborted ? 'EMBEDDING_TIMEOUT' : 'EMBEDDING_FAILED',
      message: `Embedding the query with ${embedder.model} failed: ${error instanceof Error ? error.message : String(error)}`,
      userMessage: 'The query could not be embedded: the embedding service failed or was too slow.',
      nextStep: 'Try the same call again in a minute; if it keeps failing, the operator should check the embedding service.',
      retryable: true,
      httpStatus: 503,
      cause: error,
    });
  }
  if (!vector || vector.length !== EMBEDDING_DIMENSIONS) {
    throw new AppError({ code: 'EMBEDDING_DIMENSIONS_MISMATCH', message: `${embedder.model} returned ${vector?.length ?? 0} dimensions, not ${EMBEDDING_DIMENSIONS}.`, userMessage: 'The embedding model is misconfigured.', nextStep: 'The operator should set EMBEDDING_MODEL to the model the sources were indexed with.' });
  }
  return vector;
}
