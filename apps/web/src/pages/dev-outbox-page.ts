import type { OutboxEntry } from '@brain/accounts';
import { html, type SafeHtml } from '../html/html.ts';

export function devOutboxPage(entries: readonly OutboxEntry[]): SafeHtml {
  return html`<h1>Dev outbox</h1>
<p class="muted">Magic links this server would have emailed, newest first. Shown because no email service (SUPABASE_URL) is
configured, and only to this machine. Links work once, for ten minutes.</p>
${
  entries.length === 0
    ? html`<p>No links sent yet.</p>`
    : html`<table><thead><tr><th>When</th><th>To</th><th>For</th><th>Link</th></tr></thead><tbody>
${entries.map(
  (e) => html`<tr><td>${e.sentAt.toISOString().slice(11, 19)}</td><td>${e.to}</td><td>${e.purpose} · ${e.workspaceName}</td>
<td><a href="${e.url}">open link</a></td></tr>`,
)}
</tbody></table>`
}`;
}
