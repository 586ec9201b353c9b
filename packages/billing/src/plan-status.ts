import type Stripe from 'stripe';

export type PlanStatus = 'none' | 'trialing' | 'active' | 'past_due' | 'canceled';

/**
 * Stripe's subscription status, as the workspace's plan. `unpaid` (retries exhausted) stays
 * past_due: its grace period, counted from when it first went past due, has run out by then.
 * `paused` and `incomplete_expired` leave nothing to use; `incomplete` has not started.
 */
export function planStatusFor(status: Stripe.Subscription.Status): PlanStatus {
  switch (status) {
    case 'active':
      return 'active';
    case 'trialing':
      return 'trialing';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
    case 'paused':
      return 'canceled';
    case 'incomplete':
      return 'none';
    default:
      // A status newer than this code grants nothing until someone decides what it means.
      return 'none';
  }
}

/** A subscription that still grants the plan (past_due within its grace). */
export function isLive(status: Stripe.Subscription.Status): boolean {
  const plan = planStatusFor(status);
  return plan === 'active' || plan === 'trialing' || plan === 'past_due';
}
