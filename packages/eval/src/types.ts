export type RetrievalMode = 'hybrid' | 'vector' | 'keyword';
export const RETRIEVAL_MODES: readonly RetrievalMode[] = ['hybrid', 'vector', 'keyword'];

/** Which half of a set a question belongs to: constants are chosen on `tune`, reported on `test`. */
export type Split = 'tune' | 'test';
/** A question selection: one half, or both ("all"). */
export type SplitSelection = Split | 'all';
export const SPLIT_SELECTIONS: readonly SplitSelection[] = ['all', 'tune', 'test'];

/** One line of an eval set (JSONL). */
export interface EvalQuestion {
  id: string;
  question: string;
  /** File names (relative paths) or URLs; a retrieved source matches when it ends with one. Empty when unanswerable. */
  expected_sources: string[];
  /** Free-form category, e.g. "exact" or "paraphrase"; results are also reported per kind. */
  kind: string;
  /** False for a question the corpus does not answer: the right answer is a refusal. */
  answerable: boolean;
  /** One to three short strings, one of which a correct answer contains (answer-level scoring). */
  answers?: string[];
  split?: Split;
}

/** Where one retrieved passage came from. */
export interface RetrievedSource {
  url: string | null;
  fileName: string | null;
}

export interface QuestionScore {
  id: string;
  kind: string;
  split: Split | null;
  mode: RetrievalMode;
  /** 1-based rank of the first passage from an expected source within the top k, or null. */
  firstHitRank: number | null;
  hit: boolean;
  reciprocalRank: number;
  /** The top-k sources as retrieved (URL, else file name), for reading failures. */
  retrieved: string[];
}

export interface SummaryRow {
  mode: RetrievalMode;
  /** The questions summarised: one half of the set, or "all" of those run. */
  split: SplitSelection;
  /** A question kind, or "all". */
  kind: string;
  questions: number;
  recall: number;
  mrr: number;
}

export interface EvalReport {
  k: number;
  /** The questions this run was asked to measure. */
  split: SplitSelection;
  /** Answerable questions scored for retrieval (unanswerable ones have no expected source). */
  questionCount: number;
  modes: RetrievalMode[];
  summary: SummaryRow[];
  results: QuestionScore[];
}
