import { inGroup, splitGroups } from './select-split.ts';
import type { EvalReport, QuestionScore, RetrievalMode, RetrievedSource, Split, SplitSelection, SummaryRow } from './types.ts';

/**
 * Does this retrieved source count as one of the expected ones? Its URL (query and fragment
 * removed) or file name must end with the expected name at a path boundary: "Hooks.md" matches
 * ".../Reference/Hooks.md" but not ".../WebHooks.md". Case matters, as in paths.
 */
export function sourceMatches(source: RetrievedSource, expected: readonly string[]): boolean {
  const candidates = [source.url?.replace(/[?#].*$/, ''), source.fileName].filter((s): s is string => Boolean(s));
  return candidates.some((c) => expected.some((e) => endsAtBoundary(c, e)));
}

function endsAtBoundary(value: string, suffix: string): boolean {
  const s = suffix.replace(/^\.?\/+/, '');
  if (s === '' || !value.endsWith(s)) return false;
  const before = value.charAt(value.length - s.length - 1);
  return before === '' || before === '/' || before === '\\';
}

/** hit@k and the reciprocal rank of the first hit within the top k (0 when none). */
export function scoreQuestion(
  question: { id: string; kind: string; expected_sources: readonly string[]; split?: Split },
  mode: RetrievalMode,
  ranked: readonly RetrievedSource[],
  k: number,
): QuestionScore {
  const top = ranked.slice(0, k);
  const index = top.findIndex((s) => sourceMatches(s, question.expected_sources));
  const firstHitRank = index < 0 ? null : index + 1;
  return {
    id: question.id,
    kind: question.kind,
    split: question.split ?? null,
    mode,
    firstHitRank,
    hit: firstHitRank !== null,
    reciprocalRank: firstHitRank === null ? 0 : 1 / firstHitRank,
    retrieved: top.map((s) => s.url ?? s.fileName ?? '?'),
  };
}

/** recall@k and MRR per mode, per split group (see splitGroups), overall ("all") and per question kind. */
export function summarise(scores: readonly QuestionScore[], selection: SplitSelection = 'all'): SummaryRow[] {
  const rows: SummaryRow[] = [];
  const modes = [...new Set(scores.map((s) => s.mode))];
  const kinds = [...new Set(scores.map((s) => s.kind))].sort();
  for (const mode of modes) {
    for (const split of splitGroups(selection, scores.map((s) => s.split))) {
      const ofGroup = scores.filter((s) => s.mode === mode && inGroup(s.split, split));
      rows.push(row(mode, split, 'all', ofGroup));
      for (const kind of kinds) {
        const ofKind = ofGroup.filter((s) => s.kind === kind);
        if (ofKind.length > 0) rows.push(row(mode, split, kind, ofKind));
      }
    }
  }
  return rows;
}

function row(mode: RetrievalMode, split: SplitSelection, kind: string, scores: readonly QuestionScore[]): SummaryRow {
  const n = scores.length;
  return {
    mode,
    split,
    kind,
    questions: n,
    recall: n === 0 ? 0 : scores.filter((s) => s.hit).length / n,
    mrr: n === 0 ? 0 : scores.reduce((sum, s) => sum + s.reciprocalRank, 0) / n,
  };
}

export function buildReport(k: number, scores: readonly QuestionScore[], split: SplitSelection = 'all'): EvalReport {
  return {
    k,
    split,
    questionCount: new Set(scores.map((s) => s.id)).size,
    modes: [...new Set(scores.map((s) => s.mode))],
    summary: summarise(scores, split),
    results: [...scores],
  };
}

export function findSummary(report: Pick<EvalReport, 'summary'>, mode: RetrievalMode, kind = 'all', split: SplitSelection = 'all'): SummaryRow | undefined {
  return report.summary.find((r) => r.mode === mode && r.kind === kind && r.split === split);
}
