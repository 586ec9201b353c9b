import type { AnswerMetric, AnswerReport, AnswererName } from './answer-types.ts';
import { findAnswerSummary } from './answer-scoring.ts';
import { findSummary } from './scoring.ts';
import type { EvalReport, RetrievalMode, Split, SplitSelection } from './types.ts';

type ModeFigures = Partial<Record<RetrievalMode, { recall: number; mrr: number }>>;
type AnswerFigures = Partial<Record<AnswererName, Partial<Record<AnswerMetric, number>>>>;

/**
 * Published figures (eval/<set>.baseline.json): what docs/retrieval-and-evaluation.md states. `modes` and `answers` are
 * for the whole set; `splits` holds the same per half. Answer figures have their own tolerance
 * because a set's few unanswerable questions make each one worth far more than 0.02.
 */
export interface EvalBaseline {
  k: number;
  tolerance?: number;
  modes: ModeFigures;
  answerTolerance?: Partial<Record<AnswerMetric, number>>;
  answers?: AnswerFigures;
  splits?: Partial<Record<Split, { modes?: ModeFigures; answers?: AnswerFigures }>>;
}

export interface BaselineFailure {
  split: SplitSelection;
  mode: RetrievalMode;
  metric: 'recall' | 'mrr';
  published: number;
  measured: number;
}

export interface AnswerBaselineFailure {
  split: SplitSelection;
  answerer: AnswererName;
  metric: AnswerMetric;
  published: number;
  measured: number;
  tolerance: number;
}

const DEFAULT_ANSWER_TOLERANCE = 0.02;

function groupsOf(summary: readonly { split: SplitSelection }[]): SplitSelection[] {
  return [...new Set(summary.map((r) => r.split))];
}

function modesFor(baseline: EvalBaseline, split: SplitSelection): ModeFigures | undefined {
  return split === 'all' ? baseline.modes : baseline.splits?.[split]?.modes;
}

function answersFor(baseline: EvalBaseline, split: SplitSelection): AnswerFigures | undefined {
  return split === 'all' ? baseline.answers : baseline.splits?.[split]?.answers;
}

/**
 * The regressions CI fails on: a mode whose recall@k or MRR fell below the published figure
 * minus `tolerance`, for every split group the report has figures for. Improvements pass
 * (update the published figure when they are real).
 */
export function compareToBaseline(
  report: EvalReport,
  baseline: EvalBaseline,
  options: { tolerance?: number; modes?: readonly RetrievalMode[] } = {},
): BaselineFailure[] {
  if (report.k !== baseline.k) throw new Error(`the baseline is for k = ${baseline.k}; this run used k = ${report.k}`);
  const tolerance = options.tolerance ?? baseline.tolerance ?? 0.02;
  const failures: BaselineFailure[] = [];
  for (const split of groupsOf(report.summary)) {
    const published = modesFor(baseline, split);
    if (!published) continue;
    const modes = options.modes ?? (Object.keys(published) as RetrievalMode[]);
    for (const mode of modes) {
      const figures = published[mode];
      if (!figures) continue;
      const measured = findSummary(report, mode, 'all', split);
      for (const metric of ['recall', 'mrr'] as const) {
        const value = measured?.[metric] ?? 0;
        if (value < figures[metric] - tolerance) failures.push({ split, mode, metric, published: figures[metric], measured: value });
      }
    }
  }
  return failures;
}

/**
 * Answer-level regressions: accuracy, cited-expected and unanswerable-refused falling below the
 * published figure minus its tolerance, or wrongly-refused rising above it plus its tolerance.
 * Only the answerers the report measured are compared (a skipped chat leg is not a regression).
 */
export function compareAnswersToBaseline(report: AnswerReport, baseline: EvalBaseline): AnswerBaselineFailure[] {
  const failures: AnswerBaselineFailure[] = [];
  for (const split of groupsOf(report.summary)) {
    const published = answersFor(baseline, split);
    if (!published) continue;
    for (const answerer of report.answerers) {
      const figures = published[answerer];
      if (!figures) continue;
      const measured = findAnswerSummary(report, answerer, split);
      for (const [metric, value] of Object.entries(figures) as [AnswerMetric, number][]) {
        const tolerance = baseline.answerTolerance?.[metric] ?? DEFAULT_ANSWER_TOLERANCE;
        const higherIsWorse = metric === 'wronglyRefused';
        const got = measured?.[metric] ?? (higherIsWorse ? 1 : 0);
        const regressed = higherIsWorse ? got > value + tolerance : got < value - tolerance;
        if (regressed) failures.push({ split, answerer, metric, published: value, measured: got, tolerance });
      }
    }
  }
  return failures;
}
