export { parseQuestions } from './parse-questions.ts';
export { scoreQuestion, sourceMatches, summarise, buildReport, findSummary } from './scoring.ts';
export { formatReport, reportJson } from './format-report.ts';
export { retrieveForEval, type RankedPassage, type RetrieveParams } from './retrieve.ts';
export { runEval, type RunEvalOptions } from './run-eval.ts';
export { compareToBaseline, type BaselineFailure, type EvalBaseline } from './baseline.ts';
export {
  RETRIEVAL_MODES,
  type EvalQuestion,
  type EvalReport,
  type QuestionScore,
  type RetrievalMode,
  type RetrievedSource,
  type SummaryRow,
} from './types.ts';
