import type { Split, SplitSelection } from './types.ts';

/** The answerer a figure is for: the extractive one (no model) or the configured chat model. */
export type AnswererName = 'extractive' | 'chat';

/** One question through `ask`, scored. */
export interface AnswerScore {
  id: string;
  kind: string;
  split: Split | null;
  answerer: AnswererName;
  answerable: boolean;
  /** The answer cited a retrieved passage (false: a refusal, "nothing saved covers it"). */
  grounded: boolean;
  /** Grounded and containing one of the gold strings; null for an unanswerable question or one without gold strings. */
  correct: boolean | null;
  /** Correct, and a gold string is in the answer's lead (`leadOf`): the fact is what it quotes first. Null like `correct`. */
  leads?: boolean | null;
  /** A cited passage comes from an expected source; null for an unanswerable question. */
  citedExpected: boolean | null;
  /**
   * A gold string is in the passages the answerer was given (false when no answerer ran); null
   * like `correct`. A wrong answer with the fact in context is the answerer's miss; without it,
   * retrieval's.
   */
  goldInContext?: boolean | null;
  /** The sources the answer cited (file name, else URL), in citation order. */
  cited: string[];
  answer: string;
  /** The AppError code when `ask` failed (counted as neither right nor a refusal). */
  error: string | null;
  /** Asked page by page (`--each-page`): the pages its workspace held. */
  pages?: string[];
}

export interface AnswerSummaryRow {
  answerer: AnswererName;
  split: SplitSelection;
  /** A question kind, or "all". */
  kind: string;
  answerable: number;
  unanswerable: number;
  /** Share of the answerable questions whose answer contains a gold string. */
  accuracy: number | null;
  /** Share of the gradable questions whose answer quotes a gold string first (`leadOf`). */
  leads: number | null;
  /** Share of the answerable questions whose answer cites an expected source. */
  citedExpected: number | null;
  /** Share of the gradable questions whose gold string was in the passages the answerer saw: accuracy's ceiling. */
  goldInContext: number | null;
  /** Share of the answerable questions refused: the cost of refusing. */
  wronglyRefused: number | null;
  /** Share of the unanswerable questions refused: the point of refusing. */
  refusedUnanswerable: number | null;
  errors: number;
}

export interface AnswerReport {
  split: SplitSelection;
  answerers: AnswererName[];
  summary: AnswerSummaryRow[];
  results: AnswerScore[];
  /** Answerers not measured, and why (e.g. no chat model configured). */
  skipped: { answerer: AnswererName; reason: string }[];
}

export const ANSWER_METRICS = ['accuracy', 'leads', 'citedExpected', 'refusedUnanswerable', 'wronglyRefused'] as const;
export type AnswerMetric = (typeof ANSWER_METRICS)[number];
