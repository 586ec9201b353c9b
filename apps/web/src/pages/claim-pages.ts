import { maskEmail, type WorkspaceSummary } from '@brain/accounts';
import { html, type SafeHtml } from '../html/html.ts';

export interface ClaimFormView {
  workspace: WorkspaceSummary;
  csrf: string;
  error?: string | undefined;
  email?: string | undefined;
  freeSaves: number;
  freeAsks: number;
}

export function claimForm(view: ClaimFormView): SafeHtml {
  return html`<h1>Company Brain is in ${view.workspace.name || 'your server'}</h1>
<p>Claim it so you can manage billing and see what your community asks. We email you a link; it works once, for ten minutes.</p>
<form method="post" action="/claim">
  <input type="hidden" name="workspace" value="${view.workspace.id}">
  <input type="hidden" name="csrf" value="${view.csrf}">
  <label for="email">Your email</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${view.email ?? ''}">
  ${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
  <button type="submit">Email me the link</button>
</form>
<p class="muted">Until you subscribe, the server gets ${view.freeSaves} saves and ${view.freeAsks} questions free.</p>`;
}

export function alreadyClaimed(workspace: WorkspaceSummary, next: SafeHtml): SafeHtml {
  return html`<h1>${workspace.name || 'This server'} is already claimed</h1>
<p>Its owner is <b>${maskEmail(workspace.claimEmail ?? '')}</b>. An owner never changes by a new claim; ask them, or support, to transfer it.</p>
${next}`;
}

export function linkSent(devOutbox: boolean): SafeHtml {
  return html`<h1>Check your inbox</h1>
<p>If this server can still be claimed, a link is on its way to the address you gave. It works once, for ten minutes.
Opening it asks you to confirm before anything happens.</p>
${devOutbox ? html`<p class="muted">Running without an email service: the link is printed in the server's console and listed at <a href="/dev/outbox">/dev/outbox</a> (from this machine only).</p>` : ''}`;
}

export function confirmClaim(view: { workspace: WorkspaceSummary; email: string; token: string; tokenHash: string; type: string; csrf: string }): SafeHtml {
  return html`<h1>Claim ${view.workspace.name || 'this server'}?</h1>
<p>You are confirming that <b>${view.email}</b> owns Company Brain in <b>${view.workspace.name || 'this server'}</b>.
The owner manages billing and sees the dashboard.</p>
<form method="post" action="/claim/confirm">
  <input type="hidden" name="token" value="${view.token}">
  <input type="hidden" name="token_hash" value="${view.tokenHash}">
  <input type="hidden" name="type" value="${view.type}">
  <input type="hidden" name="csrf" value="${view.csrf}">
  <button type="submit">Claim ${view.workspace.name || 'this server'}</button>
</form>`;
}

interface Failure {
  status: number;
  title: string;
  text: string;
}

const UNKNOWN: Failure = { status: 400, title: 'This link is not valid', text: 'Open the link exactly as it arrived, or ask for a new one from the claim page.' };

const FAILURES: Record<string, Failure> = {
  used: { status: 409, title: 'This link has already been used', text: 'Each link works once. If you used it, the server is already yours.' },
  expired: { status: 410, title: 'This link has expired', text: 'Links work for ten minutes. Ask for a new one from the claim page.' },
  claimed_by_other: { status: 409, title: 'This server already has an owner', text: 'Someone else claimed it first. Its owner never changes by a new claim; ask them, or support, to transfer it.' },
};

export function claimFailure(reason: string): { status: number; body: SafeHtml; title: string } {
  const failure = FAILURES[reason] ?? UNKNOWN;
  return {
    status: failure.status,
    title: failure.title,
    body: html`<h1>${failure.title}</h1><p>${failure.text}</p>
<p class="muted">Lost the claim page? Adding the bot again from <a href="/install">/install</a> brings you back to it and keeps everything.</p>`,
  };
}

export function claimed(workspace: WorkspaceSummary, email: string, alreadyOwner: boolean, next: SafeHtml): SafeHtml {
  return html`<h1 class="ok">${workspace.name || 'The server'} is yours</h1>
<p>${alreadyOwner ? 'You already owned it; nothing changed.' : html`Claimed for <b>${email}</b>.`}</p>
${next}`;
}
