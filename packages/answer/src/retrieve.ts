import { EMBEDDING_DIMENSIONS, matchArtifacts, MAX_MATCH_COUNT, sqlState, withWorkspace, type ArtifactMatch, type AudienceFilter, type Database } from '@brain/db';
import type { Embedder } from '@brain/embeddings';
import { isAppError } from '@brain/errors';
import { withDeadline } from './deadline.ts';
import * as errors from './errors.ts';
import { countTermPassages } from './queries/count-term-passages.ts';
import { loadRetrievalSettings } from './queries/load-retrieval-settings.ts';
import { preferSolved } from './prefer-solved.ts';
import { genericFrom, questionTokens, type TermStats } from './text/term-weights.ts';
import { literalsOf } from './text/literals.ts';
import { codeNameRule, codeNamesOf, wholeNameRule, dottedNamesOf, letteredNamesOf } from './text/code-names.ts';
import { searchTextOf } from './text/doc-vocabulary.ts';
import { countLiteralPassages } from './queries/count-literal-passages.ts';
import type { Passage } from './types.ts';

/**
 * The retrieval step every surface shares (`ask` for /ask and `brain ask`, and MCP's
 * search_brain): the question embedded by the ingestion embedder, then match_artifacts (hybrid)
 * with the workspace's k and similarity floor, as the workspace's tenant. Both legs search for the
 * question with the documentation's words for its phrases (searchTextOf).
 */
export async function embedQuestion(embedder: Embedder, question: string, ms: number, parent?: AbortSignal): Promise<number[]> {
  let vectors: number[][];
  try {
    vectors = await withDeadline(
      ms,
      (signal) => embedder.embed([searchTextOf(question)], { signal }),
      () => errors.embeddingTimeout(embedder.model, ms),
      parent,
    );
  } catch (error) {
    throw isAppError(error) ? error : errors.embeddingFailed(embedder.model, error);
  }
  const vector = vectors[0];
  if (!vector || vector.length !== EMBEDDING_DIMENSIONS) {
    throw errors.embeddingShape(embedder.model, vector?.length ?? 0, EMBEDDING_DIMENSIONS);
  }
  return vector;
}

export interface SearchLimit {
  /** Passages wanted instead of the workspace's k (MCP's `limit`). */
  limit?: number | undefined;
  /** The most passages this caller may return, whatever the workspace's k. */
  maxLimit?: number | undefined;
  /** Passages read past the k in the same fused order, handed back apart as `runnersUp` (default 0). */
  runnersUp?: number | undefined;
}

export interface SearchResult {
  matches: ArtifactMatch[];
  /** The passages just past the k, in the fused order; empty unless asked for. */
  runnersUp: ArtifactMatch[];
  termStats: TermStats;
}

/**
 * Settings, search and the counts of the question's words in one tenant transaction, within `ms`.
 * The counts are only needed when something was retrieved, and cover only what this reply's
 * audience may see: a word found only in a hidden source must not change the answer.
 *
 * Two bounds, since neither holds alone: PostgreSQL cancels a statement past `statement_timeout`,
 * which PGlite ignores; and a deadline here answers the asker at `ms` on either engine, and stops
 * the transaction at its next statement (a statement already running in PGlite runs to its end).
 */
export async function search(
  db: Database,
  workspaceId: string,
  audience: AudienceFilter,
  vector: number[],
  question: string,
  ms: number,
  count: SearchLimit = {},
): Promise<SearchResult> {
  const text = searchTextOf(question);
  try {
    return await withDeadline(
      ms,
      (signal) =>
        withWorkspace(db, workspaceId, async (tx) => {
          await tx.query("select set_config('statement_timeout', $1, true)", [`${Math.max(1, Math.round(ms))}ms`]);
          const settings = await loadRetrievalSettings(tx, workspaceId);
          if (!settings) throw errors.workspaceNotFound(workspaceId);
          signal.throwIfAborted();
          const wanted = Math.min(count.limit ?? settings.matchCount, count.maxLimit ?? Number.POSITIVE_INFINITY);
          // Runners-up come from the same call: past the k, in its fused order, the k unchanged.
          const runnersUpWanted = Math.max(0, Math.min(count.runnersUp ?? 0, MAX_MATCH_COUNT - wanted));
          const found = await matchArtifacts(tx, { audience, workspaceId, embedding: vector, queryText: text, matchCount: wanted, runnersUp: runnersUpWanted, minSimilarity: settings.minSimilarity });
          signal.throwIfAborted();
          // The solved preference reorders the k alone.
          const matches = await preferSolved(tx, workspaceId, found.slice(0, wanted));
          const runnersUp = found.slice(wanted);
          if (matches.length === 0) return { matches, runnersUp, termStats: { documents: 0, frequencies: new Map<string, number>(), cap: 0 } };
          signal.throwIfAborted();
          const words = await countTermPassages(tx, workspaceId, audience, questionTokens(text).map((t) => t.token));
          // The values it writes out ("~1.2.3") are counted too: one the workspace writes on every
          // page ("New in version 3.11.") tells no passage apart.
          const values = await countLiteralPassages(tx, workspaceId, audience, literalsOf(question), genericFrom(words.documents));
          // And the names it writes as code, each as written: a phrase of its words would count
          // "fast mode" in prose for the parameter `fast_mode`, which no page has.
          const codeNames = await countLiteralPassages(tx, workspaceId, audience, codeNamesOf(question), words.cap, codeNameRule);
          // And its qualified names, whole: the index holds "http.postBuffer" as one word; and
          // those hyphenated beside one letter ("T-SQL"), whose letter is no word to count.
          const wholeNames = await countLiteralPassages(tx, workspaceId, audience, [...dottedNamesOf(question), ...letteredNamesOf(question)], words.cap, wholeNameRule);
          return { matches, runnersUp, termStats: { ...words, frequencies: new Map([...words.frequencies, ...values]), codeNames: new Map([...wholeNames, ...codeNames]) } };
        }),
      () => errors.searchTimeout(ms, undefined),
    );
  } catch (error) {
    if (sqlState(error) === '57014') throw errors.searchTimeout(ms, error);
    throw error;
  }
}

export interface RetrieveInput extends SearchLimit {
  workspaceId: string;
  question: string;
  audience: AudienceFilter;
  timeouts: { embedMs: number; searchMs: number };
  signal?: AbortSignal | undefined;
}

/** Both halves at once, for a surface that times neither apart (ask times each stage itself). */
export async function retrieve(deps: { db: Database; embedder: Embedder }, input: RetrieveInput): Promise<SearchResult> {
  const vector = await embedQuestion(deps.embedder, input.question, input.timeouts.embedMs, input.signal);
  return search(deps.db, input.workspaceId, input.audience, vector, input.question, input.timeouts.searchMs, input);
}

/** Retrieved passages as an answerer (and the coverage gate) sees them, numbered from 1. */
export function passagesOf(matches: readonly Pick<ArtifactMatch, 'title' | 'url' | 'heading' | 'content'>[]): Passage[] {
  return matches.map((m, i) => ({ n: i + 1, title: m.title, url: m.url, heading: m.heading, content: m.content }));
}
