import type {} from './error-codes.ts';
export { parseQuestions } from './parse-questions.ts';
export { scoreQuestion, sourceMatches, summarise, buildReport, findSummary } from './scoring.ts';
export { formatReport, reportJson, reportValue } from './format-report.ts';
export { retrieveForEval, type RankedPassage, type RetrieveParams } from './retrieve.ts';
export { runEval, type RunEvalOptions } from './run-eval.ts';
export { runAnswerEval, type AnswerEvalDeps, type RunAnswerEvalOptions } from './run-answer-eval.ts';
export { buildAnswerReport, containsAnswer, findAnswerSummary, normaliseForMatch, summariseAnswers } from './answer-scoring.ts';
export { formatAnswerReport, answerReportValue } from './format-answer-report.ts';
export { selectSplit } from './select-split.ts';
export { pageGroups, type PageGroup } from './page-groups.ts';
export {
  compareAnswersToBaseline,
  compareToBaseline,
  type AnswerBaselineFailure,
  type BaselineFailure,
  type EvalBaseline,
} from './baseline.ts';
export { ANSWER_METRICS, type AnswerMetric, type AnswerReport, type AnswerScore, type AnswerSummaryRow, type AnswererName } from './answer-types.ts';
export {
  RETRIEVAL_MODES,
  SPLIT_SELECTIONS,
  type EvalQuestion,
  type EvalReport,
  type QuestionScore,
  type RetrievalMode,
  type RetrievedSource,
  type Split,
  type SplitSelection,
  type SummaryRow,
} from './types.ts';
