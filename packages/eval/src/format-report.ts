import type { EvalReport } from './types.ts';

/** A fixed-width table: one line per mode × kind, then the questions each mode missed. */
export function formatReport(report: EvalReport, options: { misses?: boolean } = {}): string {
  const k = report.k;
  const header = ['mode', 'kind', 'questions', `recall@${k}`, `MRR@${k}`];
  const body = report.summary.map((r) => [r.mode, r.kind, String(r.questions), r.recall.toFixed(3), r.mrr.toFixed(3)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i >= 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
  if (options.misses ?? true) {
    for (const mode of report.modes) {
      const missed = report.results.filter((r) => r.mode === mode && !r.hit).map((r) => r.id);
      out.push('', `${mode}: ${missed.length === 0 ? 'no misses' : `missed ${missed.join(', ')}`}`);
    }
  }
  return out.join('\n');
}

/** The report as JSON, figures rounded to 4 decimals (what --json prints and CI compares). */
export function reportJson(report: EvalReport): string {
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return JSON.stringify(
    {
      ...report,
      summary: report.summary.map((r) => ({ ...r, recall: round(r.recall), mrr: round(r.mrr) })),
      results: report.results.map((r) => ({ ...r, reciprocalRank: round(r.reciprocalRank) })),
    },
    null,
    2,
  );
}
