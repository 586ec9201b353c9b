import { ask, type Answerer, type Passage } from '@brain/answer';
import { EVERYTHING, withWorkspace, type Database } from '@brain/db';
import type { Embedder } from '@brain/embeddings';
import { coerceError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import { buildAnswerReport, containsAnswer, leadOf } from './answer-scoring.ts';
import type { AnswerReport, AnswerScore, AnswererName } from './answer-types.ts';
import { artifactSources } from './queries/artifact-sources.ts';
import { sourceMatches } from './scoring.ts';
import { selectSplit } from './select-split.ts';
import type { EvalQuestion, SplitSelection } from './types.ts';

export interface AnswerEvalDeps {
  db: Database;
  /** The embedder that indexed the corpus. */
  embedder: Embedder;
  logger: Logger;
}

export interface RunAnswerEvalOptions {
  workspaceId: string;
  questions: readonly EvalQuestion[];
  /** The answerers to measure, each through the whole of `ask` (the workspace's k and similarity floor). */
  answerers: readonly Answerer[];
  split?: SplitSelection;
  skipped?: AnswerReport['skipped'];
}

/**
 * Answer-level quality: every question through the product's `ask`, exactly as `/ask` runs it, and
 * the answer scored: right when it is grounded and contains a gold string, whether a cited source
 * is an expected one, and whether it refused (an unanswerable question should be refused, an
 * answerable one should not). Each ask records its queries row with surface "eval".
 */
export async function runAnswerEval(deps: AnswerEvalDeps, options: RunAnswerEvalOptions): Promise<AnswerReport> {
  const split = options.split ?? 'all';
  const questions = selectSplit(options.questions, split);
  const scores: AnswerScore[] = [];
  for (const answerer of options.answerers) {
    const name: AnswererName = answerer.kind === 'llm' ? 'chat' : 'extractive';
    // What the answerer was shown, to tell an answerer's miss from retrieval's.
    let shown: readonly Passage[] = [];
    const watched: Answerer = { ...answerer, answer: (request) => ((shown = request.passages), answerer.answer(request)) };
    const askDeps = { db: deps.db, embedder: deps.embedder, answerer: watched, logger: deps.logger };
    for (const q of questions) {
      shown = [];
      try {
        const result = await ask(askDeps, { workspaceId: options.workspaceId, question: q.question, surface: 'eval', askedBy: 'eval', audience: EVERYTHING });
        const sources = await withWorkspace(deps.db, options.workspaceId, (tx) => artifactSources(tx, result.citations.map((c) => c.artifactId)));
        const cited = result.citations.map((c) => ({ url: sources.get(c.artifactId)?.url ?? c.url, fileName: sources.get(c.artifactId)?.fileName ?? null }));
        const correct = !q.answerable || !q.answers ? null : result.grounded && containsAnswer(result.answer, q.answers);
        scores.push({
          id: q.id,
          kind: q.kind,
          split: q.split ?? null,
          answerer: name,
          answerable: q.answerable,
          grounded: result.grounded,
          correct,
          leads: correct === null ? null : correct && containsAnswer(leadOf(result.answer), q.answers ?? []),
          citedExpected: q.answerable ? cited.some((s) => sourceMatches(s, q.expected_sources)) : null,
          goldInContext: !q.answerable || !q.answers ? null : shown.some((p) => containsAnswer(p.content, q.answers ?? [])),
          cited: cited.map((s) => s.fileName ?? s.url ?? '?'),
          answer: result.answer,
          error: null,
        });
      } catch (caught) {
        const error = coerceError(caught);
        scores.push({
          id: q.id,
          kind: q.kind,
          split: q.split ?? null,
          answerer: name,
          answerable: q.answerable,
          grounded: false,
          correct: !q.answerable || !q.answers ? null : false,
          leads: !q.answerable || !q.answers ? null : false,
          citedExpected: q.answerable ? false : null,
          goldInContext: !q.answerable || !q.answers ? null : false,
          cited: [],
          answer: '',
          error: error.code,
        });
      }
    }
  }
  return buildAnswerReport(scores, split, options.skipped ?? []);
}
