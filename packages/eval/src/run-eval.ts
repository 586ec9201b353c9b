import type { Database } from '@brain/db';
import { searchTextOf } from '@brain/answer';
import type { Embedder } from '@brain/embeddings';
import { retrieveForEval } from './retrieve.ts';
import { buildReport, scoreQuestion } from './scoring.ts';
import { selectSplit } from './select-split.ts';
import { RETRIEVAL_MODES, type EvalQuestion, type EvalReport, type QuestionScore, type RetrievalMode, type SplitSelection } from './types.ts';

export interface RunEvalOptions {
  workspaceId: string;
  questions: readonly EvalQuestion[];
  modes?: readonly RetrievalMode[];
  k?: number;
  minSimilarity?: number;
  /** Questions embedded per call (default 64). */
  batchSize?: number;
  /** Which half of the set to measure (default all). */
  split?: SplitSelection;
}

/**
 * Retrieval quality of one workspace's corpus: each question through each mode, scored by
 * recall@k and MRR, overall and per kind. The questions are embedded once, with the embedder
 * that indexed the corpus, and reused by every mode. Unanswerable questions have no expected
 * source, so retrieval skips them (answer-level scoring measures their refusals). Each leg searches
 * for what /ask searches for: the question with the documentation's words for its phrases.
 */
export async function runEval(deps: { db: Database; embedder: Embedder }, options: RunEvalOptions): Promise<EvalReport> {
  const k = options.k ?? 5;
  const modes = options.modes ?? RETRIEVAL_MODES;
  const split = options.split ?? 'all';
  const questions = selectSplit(options.questions, split).filter((q) => q.answerable);
  const needsVectors = modes.some((m) => m !== 'keyword');
  const vectors: number[][] = [];
  if (needsVectors) {
    const size = options.batchSize ?? 64;
    for (let i = 0; i < questions.length; i += size) {
      vectors.push(...(await deps.embedder.embed(questions.slice(i, i + size).map((q) => searchTextOf(q.question)))));
    }
  }
  const scores: QuestionScore[] = [];
  for (const mode of modes) {
    for (const [i, q] of questions.entries()) {
      const ranked = await retrieveForEval(deps.db, {
        workspaceId: options.workspaceId,
        question: q.question,
        mode,
        embedding: vectors[i],
        k,
        minSimilarity: options.minSimilarity,
      });
      scores.push(scoreQuestion(q, mode, ranked, k));
    }
  }
  return buildReport(k, scores, split);
}
