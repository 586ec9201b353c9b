import { WINDOW_DAYS, type OverviewData } from '@brain/insights';
import { html, raw, type SafeHtml } from '../../html/html.ts';
import { latencyChart } from './charts/latency-chart.ts';
import { similarityChart } from './charts/similarity-chart.ts';
import { unansweredChart } from './charts/unanswered-chart.ts';
import { percent } from './layout.ts';

const card = (id: string, value: string | number, label: string | SafeHtml) =>
  html`<div class="card" id="${id}"><div class="n">${value}</div><div class="l">${label}</div></div>`;

export function windowLinks(path: string, days: number, extra = ''): SafeHtml {
  return html`<p class="filters">Period: ${WINDOW_DAYS.map(
    (d) => html`<a href="${path}?days=${d}${extra}"${d === days ? raw(' aria-current="page"') : ''}>${d} days</a>`,
  )}</p>`;
}

/** The overview: what the brain holds, how much it is asked, how well it answers, and the three charts. */
export function overviewPage(data: OverviewData): SafeHtml {
  const { figures: f, settings } = data;
  const w = f.window;
  const trend = f.questionsLastWeek > 0 ? html` (${f.questionsLastWeek} the week before)` : '';
  return html`<h1>Overview</h1>
${windowLinks('/dashboard', w.days)}
<div class="cards">
${card('fig-sources-ready', f.sources.ready, 'sources ready')}
${card('fig-passages', f.passages, 'passages searchable')}
${card('fig-questions-week', f.questionsThisWeek, html`questions in the last 7 days${trend}`)}
${card('fig-unanswered-rate', percent(w.unansweredRate), html`unanswered (${w.unanswered} of ${w.questions}, ${w.days} days)`)}
${card('fig-votes', w.upShare === null ? '–' : percent(w.upShare), html`👍 ${w.up} · 👎 ${w.down} (${w.days} days)`)}
</div>
<p class="meta" id="fig-sources">Sources: ${f.sources.ready} ready, ${f.sources.queued} queued, ${f.sources.indexing} indexing,
<a href="/dashboard/sources?status=failed">${f.sources.failed} failed</a>, <a href="/dashboard/sources?status=forgotten">${f.sources.forgotten} forgotten</a>.
Answers use up to ${settings.matchCount} passages with similarity ≥ ${settings.minSimilarity} (<a href="/dashboard/settings">change</a>).</p>
<h2>Unanswered questions over time</h2>
${unansweredChart(data.byDay)}
<h2>Similarity of retrieved passages</h2>
${similarityChart(data.similarity, settings.minSimilarity)}
<h2>Latency</h2>
${latencyChart(data.latency)}
<h2>Sources answers cite most</h2>
${
  data.topSources.length === 0
    ? html`<p class="muted">No answer has cited a source in this period.</p>`
    : html`<table id="top-sources"><thead><tr><th>Source</th><th>Answers citing it</th><th>Questions retrieving it</th></tr></thead><tbody>
${data.topSources.map(
  (t) => html`<tr><td>${t.source?.label ?? 'A deleted source'}${t.source?.forgotten ? html` <span class="badge">forgotten</span>` : ''}</td><td>${t.citedIn}</td><td>${t.retrievedIn}</td></tr>`,
)}</tbody></table>`
}`;
}
