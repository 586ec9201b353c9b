import type Stripe from 'stripe';
import { idOf } from './on-checkout-session-completed.ts';
import type { SubscriptionRef } from './sync-subscription.ts';

/** Since the 2025 "basil" API an invoice names its subscription under parent.subscription_details. */
export function invoiceSubscription(invoice: Stripe.Invoice): SubscriptionRef {
  const details = invoice.parent?.subscription_details;
  return {
    subscriptionId: idOf(details?.subscription),
    workspaceId: details?.metadata?.workspace_id,
    customerId: idOf(invoice.customer),
  };
}
