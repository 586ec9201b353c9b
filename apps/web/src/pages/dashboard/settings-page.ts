import type { McpTokenSummary } from '@brain/accounts';
import type { PlanSummary } from '@brain/billing';
import { MATCH_COUNT_RANGE, MIN_SIMILARITY_RANGE, SETTINGS_HISTOGRAM_DAYS, type SettingsData, type SettingsPreview } from '@brain/insights';
import { html, type SafeHtml } from '../../html/html.ts';
import { similarityChart } from './charts/similarity-chart.ts';
import { when } from './layout.ts';

export interface SettingsView {
  data: SettingsData;
  /** The raw values the form was last submitted with (kept on a validation error). */
  entered?: { matchCount: string; minSimilarity: string } | undefined;
  tokens: McpTokenSummary[];
  /** A token just created: shown this once, never again. */
  createdToken?: { name: string; token: string } | undefined;
  tokenError?: string | undefined;
  plan: PlanSummary | undefined;
  billingEnabled: boolean;
  checkoutUrl: string;
  csrf: (form: string) => string;
}

function previewBlock(p: SettingsPreview, csrf: string): SafeHtml {
  const floorNote = p.loosens
    ? html`<p class="meta">This loosens the settings: passages the current settings left out were never stored, so what it would add is not known; the figures below are what it keeps.</p>`
    : '';
  return html`<section id="preview" aria-live="polite">
<h2>Preview: ${p.proposed.matchCount} passages, similarity ≥ ${p.proposed.minSimilarity}</h2>
<p>Over the last ${p.questions} questions (re-read from what each one retrieved; nothing is re-run):</p>
<ul>
<li id="preview-losing"><b>${p.answersLosingAllCitations}</b> of ${p.answeredNow} answered questions would lose every passage they cited (likely “not in the sources” instead).</li>
<li id="preview-empty">Questions with no passage at all: ${p.withoutPassagesNow} now → <b>${p.withoutPassagesAfter}</b>.</li>
<li>Passages sent to the answerer: ${p.passagesNow} now → ${p.passagesAfter}.</li>
</ul>
${floorNote}
${p.examples.length > 0 ? html`<p class="meta">For example:</p><ul class="meta">${p.examples.map((e) => html`<li><a href="/dashboard/questions/${e.id}">${e.question}</a></li>`)}</ul>` : ''}
<form method="post" action="/dashboard/settings">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="match_count" value="${p.proposed.matchCount}">
<input type="hidden" name="min_similarity" value="${p.proposed.minSimilarity}">
<button type="submit" id="save-settings">Save these settings</button> <a href="/dashboard/settings">Cancel</a>
</form>
</section>`;
}

function retrievalSection(view: SettingsView): SafeHtml {
  const { data } = view;
  const errors = data.proposal && !data.proposal.ok ? data.proposal.errors : {};
  const k = view.entered?.matchCount ?? String(data.settings.matchCount);
  const s = view.entered?.minSimilarity ?? String(data.settings.minSimilarity);
  return html`<h2>Retrieval</h2>
<p>Now: each answer uses up to <b id="current-match-count">${data.settings.matchCount}</b> passages whose similarity to the question is at least
<b id="current-min-similarity">${data.settings.minSimilarity}</b>. Preview a change before saving it.</p>
<form method="get" action="/dashboard/settings" class="row">
<div><label for="match_count">Passages per answer (${MATCH_COUNT_RANGE.min}–${MATCH_COUNT_RANGE.max})</label>
<input id="match_count" name="match_count" type="number" min="${MATCH_COUNT_RANGE.min}" max="${MATCH_COUNT_RANGE.max}" step="1" required value="${k}">
${errors.matchCount ? html`<div class="error" role="alert">${errors.matchCount}</div>` : ''}</div>
<div><label for="min_similarity">Similarity floor (${MIN_SIMILARITY_RANGE.min}–${MIN_SIMILARITY_RANGE.max})</label>
<input id="min_similarity" name="min_similarity" type="number" min="${MIN_SIMILARITY_RANGE.min}" max="${MIN_SIMILARITY_RANGE.max}" step="0.01" required value="${s}">
${errors.minSimilarity ? html`<div class="error" role="alert">${errors.minSimilarity}</div>` : ''}</div>
<div><button type="submit" id="preview-settings">Preview</button></div>
</form>
${data.preview ? previewBlock(data.preview, view.csrf('settings')) : ''}
${similarityChart(data.similarity, data.preview?.proposed.minSimilarity ?? data.settings.minSimilarity)}
<p class="meta">Last ${SETTINGS_HISTOGRAM_DAYS} days. ${data.preview ? 'The dashed line is the proposed floor.' : 'The dashed line is the current floor.'}</p>`;
}

function tokensSection(view: SettingsView): SafeHtml {
  const live = view.tokens.filter((t) => !t.revokedAt);
  return html`<h2 id="mcp-tokens">MCP tokens</h2>
<p class="muted">An MCP client (an AI assistant or agent) uses a token to search this server's sources. Anyone holding one can read what was saved: give each client its own, and revoke it when it is done.</p>
${
  view.createdToken
    ? html`<div class="notice" role="status" id="new-token"><b>Token “${view.createdToken.name}” created.</b> Copy it now: it is shown this once and cannot be shown again.
<code class="secret">${view.createdToken.token}</code></div>`
    : ''
}
${
  view.tokens.length === 0
    ? html`<p class="muted">No tokens yet.</p>`
    : html`<table id="tokens"><thead><tr><th>Name</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>
${view.tokens.map(
  (t) => html`<tr data-token-id="${t.id}"><td>${t.name}<div class="meta">by ${t.createdBy}</div></td><td>${when(t.createdAt)}</td><td>${t.lastUsedAt ? when(t.lastUsedAt) : 'never'}</td>
<td>${t.revokedAt ? html`<span class="badge">revoked ${when(t.revokedAt)}</span>` : html`<form class="inline" method="post" action="/dashboard/tokens/${t.id}/revoke"><input type="hidden" name="csrf" value="${view.csrf('tokens')}"><button type="submit">Revoke</button></form>`}</td></tr>`,
)}</tbody></table>`
}
<form method="post" action="/dashboard/tokens" class="row">
<input type="hidden" name="csrf" value="${view.csrf('tokens')}">
<div><label for="token_name">New token's name</label><input id="token_name" name="name" type="text" maxlength="60" required placeholder="e.g. Claude desktop"></div>
<div><button type="submit" id="create-token">Create token</button></div>
</form>
${view.tokenError ? html`<p class="error" role="alert">${view.tokenError}</p>` : ''}
<p class="meta">${live.length} live ${live.length === 1 ? 'token' : 'tokens'}.</p>`;
}

function billingSection(view: SettingsView): SafeHtml {
  if (!view.billingEnabled) return html`<h2>Billing</h2><p class="muted">Billing is not configured on this server (no Stripe account), so everything is allowed.</p>`;
  const plan = view.plan;
  const status = plan?.planStatus ?? 'none';
  const manage = plan?.stripeCustomerId
    ? html`<form method="post" action="/dashboard/billing"><input type="hidden" name="csrf" value="${view.csrf('billing')}"><button type="submit">Open the billing portal</button></form>
<p class="meta">Stripe's portal: card, invoices, cancellation.</p>`
    : html`<p><a class="button" href="${view.checkoutUrl}">Subscribe</a></p>`;
  return html`<h2>Billing</h2>
<p>Plan: <b>${status === 'none' ? 'free allowance' : status.replace('_', ' ')}</b>${plan?.periodEnd && status !== 'none' ? html` · ${plan.cancelAtPeriodEnd ? 'ends' : 'renews'} ${when(plan.periodEnd)}` : ''}.</p>
${manage}`;
}

/** Retrieval settings with a preview, MCP tokens, and billing. */
export function settingsPage(view: SettingsView): SafeHtml {
  return html`<h1>Settings</h1>${retrievalSection(view)}${tokensSection(view)}${billingSection(view)}`;
}
