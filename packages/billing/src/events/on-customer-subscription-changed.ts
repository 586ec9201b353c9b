import type Stripe from 'stripe';
import type { Queryable } from '@brain/db';
import { idOf } from './on-checkout-session-completed.ts';
import { syncSubscription, type EventOutcome, type HandlerContext } from './sync-subscription.ts';

/**
 * customer.subscription.created, .updated and .deleted: one handler, because each only says
 * "this subscription changed"; what it changed to is re-read from Stripe.
 */
export async function onCustomerSubscriptionChanged(tx: Queryable, event: Stripe.Event, ctx: HandlerContext): Promise<EventOutcome> {
  const subscription = event.data.object as Stripe.Subscription;
  return syncSubscription(tx, ctx, {
    subscriptionId: subscription.id,
    workspaceId: subscription.metadata?.workspace_id,
    customerId: idOf(subscription.customer),
  });
}
