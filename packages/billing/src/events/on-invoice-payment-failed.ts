import type Stripe from 'stripe';
import type { Queryable } from '@brain/db';
import { invoiceSubscription } from './invoice-subscription.ts';
import { syncSubscription, type EventOutcome, type HandlerContext } from './sync-subscription.ts';

/**
 * A charge failed. Stripe moves the subscription to past_due and retries; the workspace then
 * keeps its plan through the grace period (entitlements), and the failure is logged with what
 * an operator needs to follow up.
 */
export async function onInvoicePaymentFailed(tx: Queryable, event: Stripe.Event, ctx: HandlerContext): Promise<EventOutcome> {
  const invoice = event.data.object as Stripe.Invoice;
  const ref = invoiceSubscription(invoice);
  if (!ref.subscriptionId) return { applied: false, reason: 'invoice is not for a subscription' };
  const outcome = await syncSubscription(tx, ctx, ref);
  ctx.logger.warn(
    {
      invoiceId: invoice.id,
      subscriptionId: ref.subscriptionId,
      attempt: invoice.attempt_count,
      nextAttempt: invoice.next_payment_attempt ? new Date(invoice.next_payment_attempt * 1000).toISOString() : null,
      planStatus: outcome.applied ? outcome.planStatus : undefined,
    },
    'subscription payment failed',
  );
  return outcome;
}
