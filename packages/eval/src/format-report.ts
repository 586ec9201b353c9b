import type { EvalReport } from './types.ts';

/** Fixed-width columns: text left-aligned up to `textColumns`, figures right-aligned. */
export function table(header: string[], body: string[][], textColumns: number): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i >= textColumns ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
}

/** A fixed-width table: one line per mode × split × kind, then the questions each mode missed. */
export function formatReport(report: EvalReport, options: { misses?: boolean } = {}): string {
  const k = report.k;
  const header = ['mode', 'split', 'kind', 'questions', `recall@${k}`, `MRR@${k}`];
  const body = report.summary.map((r) => [r.mode, r.split, r.kind, String(r.questions), r.recall.toFixed(3), r.mrr.toFixed(3)]);
  const out = table(header, body, 3);
  if (options.misses ?? true) {
    for (const mode of report.modes) {
      const missed = report.results.filter((r) => r.mode === mode && !r.hit).map((r) => r.id);
      out.push('', `${mode}: ${missed.length === 0 ? 'no misses' : `missed ${missed.join(', ')}`}`);
    }
  }
  return out.join('\n');
}

export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** The retrieval report as a JSON value, figures rounded to 4 decimals (what --json prints and CI compares). */
export function reportValue(report: EvalReport): unknown {
  return {
    ...report,
    summary: report.summary.map((r) => ({ ...r, recall: round4(r.recall), mrr: round4(r.mrr) })),
    results: report.results.map((r) => ({ ...r, reciprocalRank: round4(r.reciprocalRank) })),
  };
}

/** The report as JSON text. */
export function reportJson(report: EvalReport): string {
  return JSON.stringify(reportValue(report), null, 2);
}
