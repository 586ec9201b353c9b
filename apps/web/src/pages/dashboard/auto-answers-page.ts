import type { AutoAnswerOutcomes, AutoAnswerState, ChannelOutcomes } from '@brain/discord';
import { html, type SafeHtml } from '../../html/html.ts';
import { when } from './layout.ts';
import { windowLinks } from './overview-page.ts';

/** Each outcome in the words the page uses, and whether it is a good end. */
const OUTCOMES: { state: AutoAnswerState; label: string; tone: 'good' | 'bad' | '' }[] = [
  { state: 'answered', label: 'answered', tone: 'good' },
  { state: 'uncovered', label: 'nothing covers it', tone: '' },
  { state: 'not_entitled', label: 'plan allowance used', tone: 'bad' },
  { state: 'failed', label: 'failed', tone: 'bad' },
  { state: 'forbidden', label: 'no permission to post', tone: 'bad' },
  { state: 'rate_limited', label: 'rate limited', tone: 'bad' },
  { state: 'pending', label: 'answering now', tone: '' },
];
const LABEL = new Map(OUTCOMES.map((o) => [o.state, o]));

const badge = (state: AutoAnswerState) => {
  const o = LABEL.get(state);
  return html`<span class="badge${o?.tone ? ` ${o.tone}` : ''}">${o?.label ?? state}</span>`;
};

function channelSection(c: ChannelOutcomes): SafeHtml {
  const name = c.setting?.channelName ? `#${c.setting.channelName}` : `#${c.channelId}`;
  const settings = c.setting
    ? html`<p class="meta">On since ${when(c.setting.enabledAt)} · at most ${c.setting.maxPerHour} an hour · nothing covers a post → ${c.setting.whenUncovered === 'line' ? 'a short line' : 'a 🔍 reaction'} · “Still need help?” pings ${c.setting.staffRoleId ? `role ${c.setting.staffRoleId}` : 'nobody (no staff role set)'}</p>`
    : html`<p class="meta">Auto-answer is off here now; its history stays.</p>`;
  const counts = OUTCOMES.filter((o) => c.counts[o.state] > 0).map((o) => html`${badge(o.state)} ${c.counts[o.state]} `);
  return html`<section class="aa-channel" data-channel-id="${c.channelId}"><h2>${name}</h2>
${settings}
<p class="aa-counts">${counts.length > 0 ? counts : html`<span class="muted">No post in this period.</span>`} · 👍 ${c.up} · 👎 ${c.down} · staff asked ${c.staffAsked}</p>
${
  c.recent.length === 0
    ? ''
    : html`<table class="aa-recent"><thead><tr><th>When</th><th>Question</th><th>Outcome</th><th>Why</th><th>👍</th><th>👎</th><th>Staff asked</th></tr></thead><tbody>
${c.recent.map(
  (r) => html`<tr data-auto-answer-id="${r.id}" data-outcome="${r.outcome}"><td>${when(r.createdAt)}</td>
<td>${r.queryId ? html`<a href="/dashboard/questions/${r.queryId}">${r.question ?? '(no text)'}</a>` : (r.question ?? '(no text)')}</td>
<td>${badge(r.outcome)}</td><td class="meta">${r.reason ?? ''}</td><td>${r.up}</td><td>${r.down}</td><td>${r.staffAsked ? 'yes' : ''}</td></tr>`,
)}</tbody></table>`
}
</section>`;
}

/** GET /dashboard/auto-answers: how each new post in an auto-answer channel ended, and why. */
export function autoAnswersPage(data: AutoAnswerOutcomes): SafeHtml {
  const t = data.totals;
  return html`<h1>Auto-answers</h1>
${windowLinks('/dashboard/auto-answers', data.days)}
<div class="cards" id="aa-totals">
${OUTCOMES.filter((o) => o.state !== 'pending' || t.pending > 0).map((o) => html`<div class="card" data-outcome="${o.state}"><div class="n">${t[o.state]}</div><div class="l">${o.label}</div></div>`)}
<div class="card" id="aa-votes"><div class="n">👍 ${data.up} · 👎 ${data.down}</div><div class="l">votes on auto-answers</div></div>
<div class="card" id="aa-staff"><div class="n">${data.staffAsked}</div><div class="l">“Still need help?” pressed</div></div>
</div>
${
  data.channels.length === 0
    ? html`<p class="muted">No channel answers by itself yet. In Discord, an admin turns it on with <code>/autoanswer on channel: #help</code>.</p>`
    : data.channels.map(channelSection)
}`;
}
