import type Stripe from 'stripe';
import type { Queryable } from '@brain/db';
import { invoiceSubscription } from './invoice-subscription.ts';
import { syncSubscription, type EventOutcome, type HandlerContext } from './sync-subscription.ts';

/** A renewal or a recovered payment: the period moves on and a past_due plan is active again. */
export async function onInvoicePaid(tx: Queryable, event: Stripe.Event, ctx: HandlerContext): Promise<EventOutcome> {
  const invoice = event.data.object as Stripe.Invoice;
  const ref = invoiceSubscription(invoice);
  if (!ref.subscriptionId) return { applied: false, reason: 'invoice is not for a subscription' };
  return syncSubscription(tx, ctx, ref);
}
