import type { SimilarityBin } from '@brain/insights';
import { html, type SafeHtml } from '../../../html/html.ts';
import { chartFigure, countTicks, empty, n, niceMax, yAxis } from './svg.ts';

const W = 640;
const H = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 34 };

/**
 * How similar retrieved passages were to their questions, in bins of 0.05: all retrieved (pale)
 * and the cited ones (solid), with the workspace's similarity floor as a dashed line. Where the
 * solid bars start tells an operator how far the floor can rise without losing answers.
 */
export function similarityChart(bins: readonly SimilarityBin[], floor: number): SafeHtml {
  const total = bins.reduce((s, b) => s + b.retrieved, 0);
  const cited = bins.reduce((s, b) => s + b.cited, 0);
  const max = niceMax(Math.max(0, ...bins.map((b) => b.retrieved)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (v: number) => PAD.left + v * plotW;
  const y = (v: number) => H - PAD.bottom - (v / max) * plotH;
  const barW = plotW / Math.max(1, bins.length);
  const bars = bins.map(
    (b) => html`<g data-from="${b.from.toFixed(2)}" data-retrieved="${b.retrieved}" data-cited="${b.cited}">
<title>${b.from.toFixed(2)}–${b.to.toFixed(2)}: ${b.retrieved} retrieved, ${b.cited} cited</title>
<rect class="bar" x="${n(x(b.from) + 1)}" y="${n(y(b.retrieved))}" width="${n(barW - 2)}" height="${n(H - PAD.bottom - y(b.retrieved))}"/>
<rect class="bar cited" x="${n(x(b.from) + 1)}" y="${n(y(b.cited))}" width="${n(barW - 2)}" height="${n(H - PAD.bottom - y(b.cited))}"/></g>`,
  );
  const xTicks = [0, 0.2, 0.4, 0.6, 0.8, 1].map((v) => html`<text x="${n(x(v))}" y="${n(H - PAD.bottom + 14)}" text-anchor="middle">${v.toFixed(1)}</text>`);
  const body =
    total === 0
      ? empty(W, H, 'No passages retrieved in this period yet.')
      : html`${yAxis({ left: PAD.left, right: W - PAD.right, top: PAD.top, bottom: H - PAD.bottom, max, ticks: countTicks(max), label: (v) => String(v) })}
${bars}
<line class="floor" x1="${n(x(floor))}" x2="${n(x(floor))}" y1="${PAD.top}" y2="${n(H - PAD.bottom)}"><title>Similarity floor ${floor}</title></line>
${xTicks}<text x="${n(PAD.left + plotW / 2)}" y="${H - 4}" text-anchor="middle">similarity to the question</text>`;
  return chartFigure({
    id: 'chart-similarity',
    title: `Similarity of retrieved passages: ${total} retrieved, ${cited} cited`,
    width: W,
    height: H,
    body,
    caption: html`${total} passages retrieved, ${cited} of them cited (solid). Dashed: the similarity floor (${floor}).`,
  });
}
