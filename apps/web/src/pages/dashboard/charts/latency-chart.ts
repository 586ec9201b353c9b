import { LATENCY_SAMPLE, type StagePercentiles } from '@brain/insights';
import { html, type SafeHtml } from '../../../html/html.ts';
import { ms } from '../layout.ts';
import { chartFigure, empty, n, niceMax } from './svg.ts';

const W = 640;
const ROW = 34;
const PAD = { left: 80, right: 70, top: 8, bottom: 26 };
const LABELS: Record<string, string> = { embed: 'Embed', search: 'Search', generate: 'Generate', total: 'Total' };

/** p50, p95 and p99 of each stage as nested horizontal bars, on one millisecond scale. */
export function latencyChart(stages: readonly StagePercentiles[]): SafeHtml {
  const H = PAD.top + PAD.bottom + ROW * stages.length;
  const max = niceMax(Math.max(0, ...stages.map((s) => s.p99 ?? 0)));
  const plotW = W - PAD.left - PAD.right;
  const w = (v: number | null) => ((v ?? 0) / max) * plotW;
  const rows = stages.map((s, i) => {
    const y = PAD.top + i * ROW;
    return html`<g data-stage="${s.stage}" data-p50="${s.p50 ?? ''}" data-p95="${s.p95 ?? ''}" data-p99="${s.p99 ?? ''}">
<title>${LABELS[s.stage]}: p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, p99 ${ms(s.p99)} (${s.samples} questions)</title>
<text x="${PAD.left - 6}" y="${n(y + ROW / 2 + 4)}" text-anchor="end">${LABELS[s.stage]}</text>
<rect class="p99" x="${PAD.left}" y="${n(y + 6)}" width="${n(w(s.p99))}" height="${ROW - 12}"/>
<rect class="p95" x="${PAD.left}" y="${n(y + 6)}" width="${n(w(s.p95))}" height="${ROW - 12}"/>
<rect class="p50" x="${PAD.left}" y="${n(y + 6)}" width="${n(w(s.p50))}" height="${ROW - 12}"/>
<text x="${n(PAD.left + w(s.p99) + 4)}" y="${n(y + ROW / 2 + 4)}">${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.p99)}</text></g>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (f) => html`<line class="axis" x1="${n(PAD.left + f * plotW)}" x2="${n(PAD.left + f * plotW)}" y1="${PAD.top}" y2="${n(H - PAD.bottom)}"/>
<text x="${n(PAD.left + f * plotW)}" y="${n(H - PAD.bottom + 14)}" text-anchor="middle">${ms(f * max)}</text>`,
  );
  const samples = stages.find((s) => s.stage === 'total')?.samples ?? 0;
  return chartFigure({
    id: 'chart-latency',
    title: `Latency percentiles per stage over ${samples} questions`,
    width: W,
    height: H,
    body: samples === 0 ? empty(W, H, 'No questions in this period yet.') : html`${ticks}${rows}`,
    caption: `Solid: median (p50); lighter: p95; palest: p99; over the period's latest ${samples} questions (at most ${LATENCY_SAMPLE.toLocaleString('en')}). Generate runs only when passages were found.`,
  });
}
