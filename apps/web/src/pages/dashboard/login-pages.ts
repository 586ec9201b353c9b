import type { WorkspaceSummary } from '@brain/accounts';
import { html, type SafeHtml } from '../../html/html.ts';

export function loginForm(view: { csrf: string; error?: string | undefined; email?: string | undefined; ended?: boolean }): SafeHtml {
  return html`<h1>Log in to the dashboard</h1>
${view.ended ? html`<p class="error" role="status">Your session has ended. Log in again.</p>` : ''}
<p>Enter the email that claimed your server. We send a link that works once, for ten minutes.</p>
<form method="post" action="/login">
  <input type="hidden" name="csrf" value="${view.csrf}">
  <label for="email">Your email</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${view.email ?? ''}">
  ${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
  <button type="submit">Email me a login link</button>
</form>
<p class="muted">Not claimed yet? Whoever added the bot claims it from the page shown after <a href="/install">installing</a>.</p>`;
}

export function loginSent(devOutbox: boolean): SafeHtml {
  return html`<h1>Check your inbox</h1>
<p>If that address owns a server here, a login link is on its way (one per server it owns). It works once, for ten minutes.</p>
${devOutbox ? html`<p class="muted">Running without an email service: the link is printed in the server's console and listed at <a href="/dev/outbox">/dev/outbox</a> (from this machine only).</p>` : ''}`;
}

export function confirmLogin(view: { workspace: WorkspaceSummary; email: string; token: string; tokenHash: string; type: string; csrf: string }): SafeHtml {
  return html`<h1>Log in to ${view.workspace.name || 'your server'}?</h1>
<p>As <b>${view.email}</b>. The session lasts while you use it (up to seven days); log out on a shared computer.</p>
<form method="post" action="/login/confirm">
  <input type="hidden" name="token" value="${view.token}">
  <input type="hidden" name="token_hash" value="${view.tokenHash}">
  <input type="hidden" name="type" value="${view.type}">
  <input type="hidden" name="csrf" value="${view.csrf}">
  <button type="submit">Open the dashboard</button>
</form>`;
}

const FAILURES: Record<string, { status: number; title: string; text: string }> = {
  used: { status: 409, title: 'This link has already been used', text: 'Each login link works once. Ask for a new one.' },
  expired: { status: 410, title: 'This link has expired', text: 'Login links work for ten minutes. Ask for a new one.' },
  not_owner: { status: 403, title: 'This address no longer owns the server', text: 'The server changed owner since the link was sent.' },
};

export function loginFailure(reason: string): { status: number; title: string; body: SafeHtml } {
  const failure = FAILURES[reason] ?? { status: 400, title: 'This link is not valid', text: 'Open the link exactly as it arrived, or ask for a new one.' };
  return { ...failure, body: html`<h1>${failure.title}</h1><p>${failure.text}</p><p><a class="button" href="/login">Log in</a></p>` };
}
