import type { AnswerReport, AnswerSummaryRow } from './answer-types.ts';
import { round4, table } from './format-report.ts';

const figure = (x: number | null) => (x === null ? '-' : x.toFixed(3));

/**
 * One line per answerer × split × kind: answer accuracy, the fact quoted first, a cited source expected, answerable
 * questions refused, unanswerable questions refused; then the skipped answerers, and with
 * `misses` every question answered wrongly or refused wrongly, with the start of its answer.
 */
export function formatAnswerReport(report: AnswerReport, options: { misses?: boolean } = {}): string {
  const header = ['answerer', 'split', 'kind', 'answerable', 'unanswerable', 'accuracy', 'gold first', 'gold in context', 'cited expected', 'wrongly refused', 'refused unanswerable', 'errors'];
  const body = report.summary.map((r) => [
    r.answerer,
    r.split,
    r.kind,
    String(r.answerable),
    String(r.unanswerable),
    figure(r.accuracy),
    figure(r.leads),
    figure(r.goldInContext),
    figure(r.citedExpected),
    figure(r.wronglyRefused),
    figure(r.refusedUnanswerable),
    String(r.errors),
  ]);
  const out = table(header, body, 3);
  for (const s of report.skipped) out.push('', `${s.answerer}: skipped (${s.reason})`);
  if (options.misses) {
    for (const answerer of report.answerers) {
      const failures = report.results.filter((r) => r.answerer === answerer && isFailure(r));
      out.push('', `${answerer}: ${failures.length === 0 ? 'no failures' : `${failures.length} failures`}`);
      for (const r of failures) {
        const why = r.error ? `error ${r.error}` : !r.answerable ? 'answered an unanswerable question' : !r.grounded ? 'refused' : r.correct === false ? 'no gold string' : 'no expected source cited';
        out.push(`  ${r.id}${r.pages ? ` (over ${r.pages.join(' + ')})` : ''} [${r.split ?? '-'}]: ${why}; cited ${r.cited.join(', ') || 'nothing'}`);
        if (r.answer) out.push(`    ${excerpt(r.answer)}`);
      }
    }
  }
  return out.join('\n');
}

function isFailure(r: AnswerReport['results'][number]): boolean {
  if (r.error) return true;
  if (!r.answerable) return r.grounded;
  return !r.grounded || r.correct === false || r.citedExpected === false;
}

function excerpt(answer: string): string {
  // The extractive label is the same on every answer; the quotes are what is worth reading.
  const body = answer.split('\n').filter((l) => l.startsWith('>')).join(' ') || answer;
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > 240 ? `${flat.slice(0, 239)}…` : flat;
}

/** The answer report as a JSON value, figures rounded to 4 decimals. */
export function answerReportValue(report: AnswerReport): unknown {
  const round = (x: number | null) => (x === null ? null : round4(x));
  return {
    ...report,
    summary: report.summary.map((r: AnswerSummaryRow) => ({
      ...r,
      accuracy: round(r.accuracy),
      leads: round(r.leads),
      citedExpected: round(r.citedExpected),
      wronglyRefused: round(r.wronglyRefused),
      refusedUnanswerable: round(r.refusedUnanswerable),
    })),
  };
}
