import type { AskResult } from './types.ts';

/**
 * The result in the shape `brain ask --json`, MCP and the playground publish (snake_case, as in
 * the queries table): { answer, grounded, citations: [{ n, artifact_id, chunk_id, title, url,
 * similarity, matched_by }], query_id, trimmed, answerer, model }.
 */
export function toAskJson(result: AskResult) {
  return {
    answer: result.answer,
    grounded: result.grounded,
    citations: result.citations.map((c) => ({
      n: c.n,
      artifact_id: c.artifactId,
      chunk_id: c.chunkId,
      title: c.title,
      url: c.url,
      heading: c.heading,
      similarity: c.similarity,
      matched_by: c.matchedBy,
      rank: c.rank,
      ...(c.messageId ? { message_id: c.messageId } : {}),
    })),
    query_id: result.queryId,
    trimmed: result.trimmed,
    answerer: result.answerer,
    model: result.model,
  };
}
