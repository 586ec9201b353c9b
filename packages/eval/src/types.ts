export type RetrievalMode = 'hybrid' | 'vector' | 'keyword';
export const RETRIEVAL_MODES: readonly RetrievalMode[] = ['hybrid', 'vector', 'keyword'];

/** One line of an eval set (JSONL). */
export interface EvalQuestion {
  id: string;
  question: string;
  /** File names (relative paths) or URLs; a retrieved source matches when it ends with one. */
  expected_sources: string[];
  /** Free-form category, e.g. "exact" or "paraphrase"; results are also reported per kind. */
  kind: string;
}

/** Where one retrieved passage came from. */
export interface RetrievedSource {
  url: string | null;
  fileName: string | null;
}

export interface QuestionScore {
  id: string;
  kind: string;
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
  /** A question kind, or "all". */
  kind: string;
  questions: number;
  recall: number;
  mrr: number;
}

export interface EvalReport {
  k: number;
  questionCount: number;
  modes: RetrievalMode[];
  summary: SummaryRow[];
  results: QuestionScore[];
}
