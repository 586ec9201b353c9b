import type Stripe from 'stripe';
import type { Queryable } from '@brain/db';
import { onCheckoutSessionCompleted } from './on-checkout-session-completed.ts';
import { onCustomerSubscriptionChanged } from './on-customer-subscription-changed.ts';
import { onInvoicePaid } from './on-invoice-paid.ts';
import { onInvoicePaymentFailed } from './on-invoice-payment-failed.ts';
import type { EventOutcome, HandlerContext } from './sync-subscription.ts';

export type StripeEventHandler = (tx: Queryable, event: Stripe.Event, ctx: HandlerContext) => Promise<EventOutcome>;

/** The events to enable on the Stripe webhook endpoint; anything else is acknowledged and ignored. */
export const STRIPE_EVENT_HANDLERS: Readonly<Record<string, StripeEventHandler>> = {
  'checkout.session.completed': onCheckoutSessionCompleted,
  'customer.subscription.created': onCustomerSubscriptionChanged,
  'customer.subscription.updated': onCustomerSubscriptionChanged,
  'customer.subscription.deleted': onCustomerSubscriptionChanged,
  'invoice.paid': onInvoicePaid,
  'invoice.payment_failed': onInvoicePaymentFailed,
};
