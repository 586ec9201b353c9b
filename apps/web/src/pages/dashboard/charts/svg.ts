import { html, type SafeHtml } from '../../../html/html.ts';

/** Coordinates rounded for the markup: a tenth of a viewBox unit is below a pixel. */
export const n = (x: number): string => (Math.round(x * 10) / 10).toString();

/** A "nice" axis maximum (1, 2, 5 × 10^k) at or above the data's, so ticks land on round numbers. */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

/**
 * A chart as an inline SVG in a figure: sized by its viewBox (so it scales with the page), named
 * for screen readers, and no script or external resource (the pages' CSP allows neither).
 */
export function chartFigure(options: { id: string; title: string; width: number; height: number; body: SafeHtml; caption: SafeHtml | string }): SafeHtml {
  return html`<figure id="${options.id}">
<svg class="chart" viewBox="0 0 ${options.width} ${options.height}" role="img" aria-labelledby="${options.id}-title" xmlns="http://www.w3.org/2000/svg">
<title id="${options.id}-title">${options.title}</title>
${options.body}
</svg>
<figcaption>${options.caption}</figcaption>
</figure>`;
}

/** How many steps to divide a count axis into, so every tick is a whole number (1 → 1 step, 10 → 5, 20 → 4). */
export function countTicks(max: number): number {
  return [4, 5, 2, 1].find((t) => Number.isInteger(max / t)) ?? 1;
}

/** Horizontal grid lines with labels on the left, from 0 to max in `ticks` steps. */
export function yAxis(o: { left: number; right: number; top: number; bottom: number; max: number; ticks: number; label: (v: number) => string }): SafeHtml {
  const lines = Array.from({ length: o.ticks + 1 }, (_, i) => {
    const value = (o.max * i) / o.ticks;
    const y = o.bottom - ((o.bottom - o.top) * i) / o.ticks;
    return html`<line class="axis" x1="${n(o.left)}" x2="${n(o.right)}" y1="${n(y)}" y2="${n(y)}"/><text x="${n(o.left - 4)}" y="${n(y + 3.5)}" text-anchor="end">${o.label(value)}</text>`;
  });
  return html`${lines}`;
}

export const empty = (width: number, height: number, text: string): SafeHtml =>
  html`<text x="${n(width / 2)}" y="${n(height / 2)}" text-anchor="middle">${text}</text>`;
