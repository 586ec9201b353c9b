import type Stripe from 'stripe';

export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  status: Stripe.Subscription.Status;
  cancelAtPeriodEnd: boolean;
  /** The first item's period end (it moved from the subscription to its items in 2025). */
  currentPeriodEnd: Date | null;
  /** metadata.workspace_id, copied from Checkout's subscription_data. */
  workspaceId: string | undefined;
}

export interface CheckoutRequest {
  workspaceId: string;
  priceId: string;
  /** An existing Stripe customer, or the address Checkout should prefill for a new one. */
  customerId?: string | undefined;
  customerEmail?: string | undefined;
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

/**
 * The part of Stripe this product uses, so the rest of the code neither imports stripe-node nor
 * depends on its error classes. Errors come out as AppErrors that say whether to retry.
 */
export interface BillingGateway {
  createCheckoutSession(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }>;
  /** undefined when Stripe has no such subscription. */
  retrieveSubscription(id: string): Promise<SubscriptionSnapshot | undefined>;
  /** Verifies Stripe-Signature over the raw body (300 s tolerance) and returns the event. */
  constructEvent(rawBody: Buffer, signature: string | string[] | undefined): Stripe.Event;
}
