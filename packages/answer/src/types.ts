import type { ArtifactMatch, MatchedBy } from '@brain/db';

/** How a passage reached the answer: retrieval's legs, or (`source`) read from a source retrieval chose (source-siblings.ts). */
export type FoundBy = MatchedBy | 'source';

/** A passage the answerer reads: a retrieved one, or a further passage of a retrieved source. */
export type ContextMatch = Omit<ArtifactMatch, 'matchedBy'> & { matchedBy: FoundBy[] };
import type { TermStats } from './text/term-weights.ts';

/**
 * Where a question came from; recorded in queries.surface (the column's check lists the same).
 * 'auto' and 'follow_up' come from the Gateway: a new post answered by itself, a reply in its thread.
 */
export type QuerySurface = 'discord' | 'playground' | 'cli' | 'mcp' | 'dashboard' | 'eval' | 'auto' | 'follow_up';

export type AnswererKind = 'llm' | 'extractive';

/**
 * One retrieved passage as an answerer sees it. `n` is its number in this request (1 = best
 * fused rank), the only handle an answer may cite it by.
 */
export interface Passage {
  n: number;
  title: string | null;
  url: string | null;
  heading: string | null;
  /** The passage text, possibly cut by the context budget (then `truncated` is true). */
  content: string;
  truncated?: boolean;
}

export interface AnswerRequest {
  question: string;
  passages: readonly Passage[];
  /**
   * How common each of the question's words is in the workspace, when the caller counted it:
   * the extractive answerer weighs terms by it and tells generic words from informative ones.
   */
  termStats?: TermStats;
  /** Aborted when the generate stage's deadline passes; answerers must stop work then. */
  signal?: AbortSignal;
}

export interface AnswerOutput {
  text: string;
  /** The model that produced the text: the chat model's name, or the extractive algorithm's. */
  model: string;
  kind: AnswererKind;
}

/** Turns a question and its passages into text with `[n]` citations. */
export interface Answerer {
  readonly kind: AnswererKind;
  /** Known before any call, so a failed call is still recorded with its model. */
  readonly model: string;
  answer(request: AnswerRequest): Promise<AnswerOutput>;
}

/** A source the final answer cites; `n` is the number the answer text uses for it. */
export interface Citation {
  n: number;
  artifactId: string;
  chunkId: string;
  title: string | null;
  url: string | null;
  heading: string | null;
  similarity: number | null;
  matchedBy: FoundBy[];
  /** Fused rank in this request's retrieval (1 = best). */
  rank: number;
  /** For a saved conversation: the message the answer took this from (`url` is its jump link). */
  messageId?: string;
}

export interface AskResult {
  answer: string;
  /** True only when the answer cites at least one passage retrieved for this request. */
  grounded: boolean;
  citations: Citation[];
  queryId: string;
  /** True when the context budget cut or dropped a retrieved passage. */
  trimmed: boolean;
  answerer: AnswererKind | 'none';
  model: string | null;
  /**
   * The reply found nothing good enough, and the asker's own audience would have: the reply may
   * say that a private answer is available (`/ask private:True`), and nothing else about it.
   */
  privateAnswerAvailable?: boolean;
}
