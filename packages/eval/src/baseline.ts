import { findSummary } from './scoring.ts';
import type { EvalReport, RetrievalMode } from './types.ts';

/** Published figures (eval/baseline.json): what the README states, per mode. */
export interface EvalBaseline {
  k: number;
  modes: Partial<Record<RetrievalMode, { recall: number; mrr: number }>>;
}

export interface BaselineFailure {
  mode: RetrievalMode;
  metric: 'recall' | 'mrr';
  published: number;
  measured: number;
}

/**
 * The regressions CI fails on: a mode whose recall@k or MRR fell below the published figure
 * minus `tolerance`. Improvements pass (update the published figure when they are real).
 */
export function compareToBaseline(
  report: EvalReport,
  baseline: EvalBaseline,
  options: { tolerance?: number; modes?: readonly RetrievalMode[] } = {},
): BaselineFailure[] {
  if (report.k !== baseline.k) throw new Error(`the baseline is for k = ${baseline.k}; this run used k = ${report.k}`);
  const tolerance = options.tolerance ?? 0.02;
  const failures: BaselineFailure[] = [];
  const modes = options.modes ?? (Object.keys(baseline.modes) as RetrievalMode[]);
  for (const mode of modes) {
    const published = baseline.modes[mode];
    if (!published) continue;
    const measured = findSummary(report, mode);
    for (const metric of ['recall', 'mrr'] as const) {
      const value = measured?.[metric] ?? 0;
      if (value < published[metric] - tolerance) failures.push({ mode, metric, published: published[metric], measured: value });
    }
  }
  return failures;
}
