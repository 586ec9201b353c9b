import type Stripe from 'stripe';
import type { Queryable } from '@brain/db';
import { syncSubscription, type EventOutcome, type HandlerContext } from './sync-subscription.ts';

/**
 * Checkout finished: link the workspace (client_reference_id) to its customer and subscription.
 * The plan itself comes from the subscription as Stripe has it now, not from this payload.
 */
export async function onCheckoutSessionCompleted(tx: Queryable, event: Stripe.Event, ctx: HandlerContext): Promise<EventOutcome> {
  const session = event.data.object as Stripe.Checkout.Session;
  if (session.mode !== 'subscription') return { applied: false, reason: `checkout mode ${session.mode} is not a subscription` };
  return syncSubscription(tx, ctx, {
    subscriptionId: idOf(session.subscription),
    workspaceId: session.client_reference_id ?? session.metadata?.workspace_id,
    customerId: idOf(session.customer),
  });
}

export function idOf(value: string | { id: string } | null | undefined): string | undefined {
  if (!value) return undefined;
  return typeof value === 'string' ? value : value.id;
}
