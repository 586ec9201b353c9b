import { FORGET_RETENTION_DAYS, type SourcePage, type SourceSummary } from '@brain/ingest';
import { html, raw, type SafeHtml } from '../../html/html.ts';
import { when } from './layout.ts';
import { audienceName } from './question-parts.ts';

export const SOURCE_FILTERS = ['all', 'ready', 'queued', 'indexing', 'failed'] as const;
export type SourceFilter = (typeof SOURCE_FILTERS)[number];

/** What each action did, shown after its redirect. */
export const SOURCE_NOTICES: Record<string, { text: string; bad?: boolean }> = {
  forgotten: { text: `Forgotten: it no longer appears in answers. You can restore it for ${FORGET_RETENTION_DAYS} days.` },
  restored: { text: 'Restored: its passages answer questions again.' },
  reindexing: { text: 'Queued for re-indexing: it keeps answering from its current passages until the new ones are ready.' },
  'already-queued': { text: 'It was already waiting to be indexed; nothing new was queued.' },
  'audience-changed': { text: 'Audience changed: answers cite it only where everyone reading could read it. The change is recorded.' },
  'audience-unchanged': { text: 'That source was not found; nothing changed.', bad: true },
};

/** The audiences an admin can give a source: everyone, or the readers of a channel the workspace knows. */
export interface AudienceChoices {
  keys: readonly string[];
  channelNames: ReadonlyMap<string, string>;
}

function audienceForm(s: SourceSummary, csrf: string, choices: AudienceChoices): SafeHtml {
  const options = ['workspace', ...choices.keys.filter((k) => k !== 'workspace')];
  if (!options.includes(s.audience) && s.audience !== 'unknown') options.push(s.audience);
  return html`<div class="meta" data-audience="${s.audience}">Cited to ${audienceName(s.audience, choices.channelNames)}</div>
${
  s.forgottenAt
    ? ''
    : html`<form class="inline" method="post" action="/dashboard/sources/${s.id}/audience"><input type="hidden" name="csrf" value="${csrf}"><label class="meta">Audience <select name="to">${options.map(
        (k) => html`<option value="${k}"${k === s.audience ? raw(' selected') : ''}>${audienceName(k, choices.channelNames)}</option>`,
      )}</select></label> <button type="submit" data-action="audience">Change</button></form>`
}`;
}

const label = (s: SourceSummary) => s.title || s.fileName || s.url || `Untitled ${s.kind}`;

function statusBadge(s: SourceSummary): SafeHtml {
  if (s.forgottenAt) return html`<span class="badge">forgotten</span>`;
  const cls = s.status === 'ready' ? 'good' : s.status === 'failed' ? 'bad' : '';
  return html`<span class="badge ${cls}">${s.status}</span>`;
}

function actions(s: SourceSummary, csrf: string): SafeHtml {
  const button = (action: string, text: string) =>
    html`<form class="inline" method="post" action="/dashboard/sources/${s.id}/${action}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" data-action="${action}">${text}</button></form>`;
  if (s.forgottenAt) return button('restore', 'Restore');
  return html`${button('reindex', 'Re-index')}${button('forget', 'Forget')}`;
}

/** Every source with its status and failure reason; forget, restore and re-index are POST buttons. */
export function sourcesPage(page: SourcePage, filter: SourceFilter, csrf: string, choices: AudienceChoices = { keys: [], channelNames: new Map() }, synced: SafeHtml = html``): SafeHtml {
  const next = page.nextCursor ? `/dashboard/sources?status=${filter}&after=${encodeURIComponent(page.nextCursor)}` : null;
  return html`<h1>Sources</h1>
<p class="filters">${SOURCE_FILTERS.map(
    (f) => html`<a href="/dashboard/sources?status=${f}"${f === filter ? raw(' aria-current="page"') : ''}>${f === 'all' ? 'All' : f[0]?.toUpperCase() + f.slice(1)}</a>`,
  )}<span class="meta" id="sources-total">${page.total} ${page.total === 1 ? 'source' : 'sources'}</span></p>
${synced}
${
  page.sources.length === 0
    ? html`<p class="muted">${filter === 'all' ? 'Nothing saved yet. Use /save in Discord or the playground.' : 'None.'}</p>`
    : html`<table id="sources"><thead><tr><th>Source</th><th>Status</th><th>Passages</th><th>Saved</th><th></th></tr></thead><tbody>
${page.sources.map(
  (s) => html`<tr data-source-id="${s.id}" data-status="${s.forgottenAt ? 'forgotten' : s.status}">
<td>${s.url ? html`<a href="${s.url}" rel="noreferrer noopener">${label(s)}</a>` : label(s)}<div class="meta">${s.kind}${s.savedBy ? ` · by ${s.savedBy}` : ''}</div>
${s.status === 'failed' && !s.forgottenAt ? html`<div class="error">${s.errorCode ?? 'FAILED'}: ${s.errorMessage ?? 'no reason recorded'}</div>` : ''}
${s.forgottenAt ? html`<div class="meta">Forgotten ${when(s.forgottenAt)}; restorable until ${when(new Date(s.forgottenAt.getTime() + FORGET_RETENTION_DAYS * 86_400_000))}.</div>` : ''}
${audienceForm(s, csrf, choices)}</td>
<td>${statusBadge(s)}</td><td>${s.passages}</td><td>${when(s.createdAt)}</td><td>${actions(s, csrf)}</td></tr>`,
)}</tbody></table>`
}
${next ? html`<p><a class="button" href="${next}">Older sources</a></p>` : ''}`;
}
