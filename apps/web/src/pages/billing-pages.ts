import type { PlanSummary } from '@brain/billing';
import { html, type SafeHtml } from '../html/html.ts';

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : 'the end of the period');

/** The "subscribe" button: a POST, so a link preview or a crawler never opens a Checkout. */
export function checkoutButton(workspaceId: string, signature: string, csrf: string, label = 'Continue to checkout'): SafeHtml {
  return html`<form method="post" action="/billing/checkout">
  <input type="hidden" name="workspace" value="${workspaceId}">
  <input type="hidden" name="sig" value="${signature}">
  <input type="hidden" name="csrf" value="${csrf}">
  <button type="submit">${label}</button>
</form>`;
}

export function checkoutPage(plan: PlanSummary, button: SafeHtml, canceled: boolean): SafeHtml {
  return html`<h1>Subscribe ${plan.name || 'this server'}</h1>
${canceled ? html`<p class="muted">Checkout was canceled; nothing was charged.</p>` : ''}
<p>The monthly plan lifts every limit on <code>/save</code> and <code>/ask</code>. You pay on Stripe's page and can cancel
anytime with <code>/billing</code> in Discord.</p>
${button}`;
}

export function planLive(plan: PlanSummary): SafeHtml {
  const status =
    plan.planStatus === 'past_due'
      ? html`<p class="error">The last payment failed. Update the card with <code>/billing</code> in Discord to keep the plan.</p>`
      : html`<p class="ok">The plan is ${plan.planStatus === 'trialing' ? 'in its trial' : 'active'}${plan.cancelAtPeriodEnd ? html` and ends on ${day(plan.periodEnd)}` : html`; it renews on ${day(plan.periodEnd)}`}.</p>`;
  return html`<h1>${plan.name || 'This server'} has a plan</h1>${status}
<p><code>/save</code> and <code>/ask</code> have no limit. Manage the card, invoices and cancellation with <code>/billing</code> in Discord.</p>`;
}

export function awaitingConfirmation(plan: PlanSummary): SafeHtml {
  return html`<h1>Thanks! Waiting for Stripe's confirmation…</h1>
<p>Your payment went through; ${plan.name || 'the server'} switches to the plan as soon as Stripe confirms it, usually within seconds.
This page refreshes by itself.</p>`;
}

export function checkoutCanceled(plan: PlanSummary, button: SafeHtml): SafeHtml {
  return html`<h1>Checkout canceled</h1>
<p>Nothing was charged. ${plan.name || 'The server'} keeps its free allowance; subscribe whenever you are ready.</p>
${button}`;
}
