import type { DayCount } from '@brain/insights';
import { html, type SafeHtml } from '../../../html/html.ts';
import { chartFigure, empty, n, niceMax, yAxis } from './svg.ts';

const W = 640;
const H = 200;
const PAD = { left: 44, right: 40, top: 12, bottom: 30 };

/**
 * The unanswered rate per day (the line, left axis in %) over the questions asked that day (the
 * grey bars, right axis). A day without questions has no rate: the line breaks there instead of
 * dropping to 0 %.
 */
export function unansweredChart(days: readonly DayCount[]): SafeHtml {
  const questions = days.reduce((s, d) => s + d.questions, 0);
  const unanswered = days.reduce((s, d) => s + d.unanswered, 0);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, days.length);
  const cx = (i: number) => PAD.left + step * (i + 0.5);
  const volMax = niceMax(Math.max(0, ...days.map((d) => d.questions)));
  const yRate = (r: number) => H - PAD.bottom - r * plotH;
  const yVol = (v: number) => H - PAD.bottom - (v / volMax) * plotH;

  const vol = days.map(
    (d, i) => html`<rect class="vol" x="${n(cx(i) - step * 0.35)}" y="${n(yVol(d.questions))}" width="${n(step * 0.7)}" height="${n(H - PAD.bottom - yVol(d.questions))}"><title>${d.day}: ${d.questions} questions, ${d.unanswered} unanswered</title></rect>`,
  );
  // Runs of consecutive days with a rate become one polyline each.
  const runs: string[][] = [];
  let run: string[] = [];
  days.forEach((d, i) => {
    if (d.rate === null) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(`${n(cx(i))},${n(yRate(d.rate))}`);
  });
  if (run.length) runs.push(run);
  const lines = runs.map((r) => (r.length > 1 ? html`<polyline class="line" points="${r.join(' ')}"/>` : ''));
  const dots = days.map((d, i) =>
    d.rate === null ? '' : html`<circle class="dot" data-day="${d.day}" data-rate="${d.rate.toFixed(4)}" cx="${n(cx(i))}" cy="${n(yRate(d.rate))}" r="2.5"><title>${d.day}: ${Math.round(d.rate * 100)} % unanswered</title></circle>`,
  );
  const labelEvery = Math.max(1, Math.ceil(days.length / 6));
  const xLabels = days.map((d, i) =>
    i % labelEvery === 0 ? html`<text x="${n(cx(i))}" y="${n(H - PAD.bottom + 14)}" text-anchor="middle">${d.day.slice(5)}</text>` : '',
  );
  const body =
    questions === 0
      ? empty(W, H, 'No questions in this period yet.')
      : html`${yAxis({ left: PAD.left, right: W - PAD.right, top: PAD.top, bottom: H - PAD.bottom, max: 1, ticks: 4, label: (v) => `${Math.round(v * 100)} %` })}
<text x="${W - PAD.right + 4}" y="${PAD.top + 4}">${volMax}</text><text x="${W - PAD.right + 4}" y="${n(H - PAD.bottom)}">0</text>
${vol}${lines}${dots}${xLabels}`;
  return chartFigure({
    id: 'chart-unanswered',
    title: `Unanswered rate per day: ${unanswered} of ${questions} questions unanswered`,
    width: W,
    height: H,
    body,
    caption: html`Line: share of the day's questions without a grounded answer (left axis). Bars: questions per day (right axis, up to ${volMax}). Days in UTC.`,
  });
}
