import { inGroup, splitGroups } from './select-split.ts';
import type { AnswerReport, AnswerScore, AnswerSummaryRow, AnswererName } from './answer-types.ts';
import type { SplitSelection } from './types.ts';

/**
 * Case, whitespace, code backticks and typographic quotes do not count: "8000 bytes" is found in
 * "shorter than `8000`\n bytes". Anything else must match as written.
 */
export function normaliseForMatch(text: string): string {
  return text
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Does the answer state one of the gold facts? */
export function containsAnswer(answer: string, gold: readonly string[]): boolean {
  const text = normaliseForMatch(answer);
  return gold.some((g) => {
    const needle = normaliseForMatch(g);
    return needle !== '' && text.includes(needle);
  });
}

/**
 * What a reader takes for the answer: an extractive answer's quotations from the first passage it
 * cites (its first `> … [n]` line, the lines after it citing the same passage, and the code shown
 * among them), or a model's first paragraph. The bar is a fact quoted first, not
 * somewhere among four quotations.
 */
export function leadOf(answer: string): string {
  const lines = answer.split('\n');
  const start = lines.findIndex((l) => l.startsWith('> '));
  if (start < 0) return answer.split(/\n\s*\n/).find((p) => p.trim() !== '') ?? '';
  const cites = (line: string) => /\[(\d+)\]\s*$/.exec(line)?.[1];
  const first = cites(lines[start] ?? '');
  let end = start + 1;
  while (end < lines.length && !(lines[end]?.startsWith('> ') && cites(lines[end] ?? '') !== first)) end++;
  return lines.slice(start, end).join('\n');
}

/** Figures per answerer, per split group and per kind (plus "all"). */
export function summariseAnswers(scores: readonly AnswerScore[], selection: SplitSelection = 'all'): AnswerSummaryRow[] {
  const rows: AnswerSummaryRow[] = [];
  const answerers = [...new Set(scores.map((s) => s.answerer))];
  const kinds = [...new Set(scores.map((s) => s.kind))].sort();
  for (const answerer of answerers) {
    for (const split of splitGroups(selection, scores.map((s) => s.split))) {
      const ofGroup = scores.filter((s) => s.answerer === answerer && inGroup(s.split, split));
      rows.push(answerRow(answerer, split, 'all', ofGroup));
      for (const kind of kinds) {
        const ofKind = ofGroup.filter((s) => s.kind === kind);
        if (ofKind.length > 0) rows.push(answerRow(answerer, split, kind, ofKind));
      }
    }
  }
  return rows;
}

function answerRow(answerer: AnswererName, split: SplitSelection, kind: string, scores: readonly AnswerScore[]): AnswerSummaryRow {
  const answerable = scores.filter((s) => s.answerable);
  const unanswerable = scores.filter((s) => !s.answerable);
  const share = (of: readonly AnswerScore[], test: (s: AnswerScore) => boolean) => (of.length === 0 ? null : of.filter(test).length / of.length);
  const gradable = answerable.filter((s) => s.correct !== null);
  return {
    answerer,
    split,
    kind,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    accuracy: share(gradable, (s) => s.correct === true),
    leads: share(gradable, (s) => s.leads === true),
    citedExpected: share(answerable, (s) => s.citedExpected === true),
    goldInContext: share(gradable, (s) => s.goldInContext === true),
    wronglyRefused: share(answerable, (s) => s.error === null && !s.grounded),
    refusedUnanswerable: share(unanswerable, (s) => s.error === null && !s.grounded),
    errors: scores.filter((s) => s.error !== null).length,
  };
}

export function buildAnswerReport(
  scores: readonly AnswerScore[],
  split: SplitSelection,
  skipped: AnswerReport['skipped'] = [],
): AnswerReport {
  return {
    split,
    answerers: [...new Set(scores.map((s) => s.answerer))],
    summary: summariseAnswers(scores, split),
    results: [...scores],
    skipped,
  };
}

export function findAnswerSummary(report: AnswerReport, answerer: AnswererName, split: SplitSelection = 'all', kind = 'all'): AnswerSummaryRow | undefined {
  return report.summary.find((r) => r.answerer === answerer && r.split === split && r.kind === kind);
}
