import { isUuid, type Queryable } from '@brain/db';
import type { Logger } from '@brain/observability';
import { isLive, planStatusFor, type PlanStatus } from '../plan-status.ts';
import type { BillingGateway, SubscriptionSnapshot } from '../stripe/billing-gateway.ts';

export interface HandlerContext {
  gateway: BillingGateway;
  logger: Logger;
}

export type EventOutcome =
  | { applied: true; workspaceId: string; planStatus: PlanStatus; subscriptionId: string }
  | { applied: false; reason: string };

export interface SubscriptionRef {
  subscriptionId: string | undefined;
  /** From client_reference_id or metadata; checked against the subscription's own metadata. */
  workspaceId?: string | undefined;
  customerId?: string | undefined;
}

interface LockedWorkspace extends Record<string, unknown> {
  id: string;
  stripe_subscription_id: string | null;
}

/**
 * The one place a plan changes. The event only says which subscription to look at: its state
 * is read from Stripe after the workspace row is locked, so concurrent and out-of-order events
 * for a workspace apply one after another, each with what Stripe says now, and every order
 * ends in Stripe's current state.
 */
export async function syncSubscription(tx: Queryable, ctx: HandlerContext, ref: SubscriptionRef): Promise<EventOutcome> {
  if (!ref.subscriptionId) return { applied: false, reason: 'no subscription on this event' };
  const workspace = await lockWorkspace(tx, ref);
  if (!workspace) return { applied: false, reason: `no workspace for subscription ${ref.subscriptionId}` };

  const incoming = await ctx.gateway.retrieveSubscription(ref.subscriptionId);
  if (!incoming) return { applied: false, reason: `Stripe has no subscription ${ref.subscriptionId}` };
  if (incoming.workspaceId && incoming.workspaceId !== workspace.id) {
    // A subscription never moves between workspaces, whatever a payload claims.
    return { applied: false, reason: `subscription ${incoming.id} belongs to workspace ${incoming.workspaceId}, not ${workspace.id}` };
  }

  const current = workspace.stripe_subscription_id;
  if (current && current !== incoming.id) {
    const existing = await ctx.gateway.retrieveSubscription(current);
    if (existing && isLive(existing.status)) {
      if (isLive(incoming.status)) {
        ctx.logger.warn({ workspaceId: workspace.id, kept: existing.id, other: incoming.id }, 'workspace has two live subscriptions; cancel one in Stripe');
      }
      return { applied: false, reason: `workspace follows live subscription ${existing.id}` };
    }
  }

  const planStatus = await applySnapshot(tx, workspace.id, incoming);
  return { applied: true, workspaceId: workspace.id, planStatus, subscriptionId: incoming.id };
}

async function lockWorkspace(tx: Queryable, ref: SubscriptionRef): Promise<LockedWorkspace | undefined> {
  const [row] = await tx.query<LockedWorkspace>(
    `select id::text, stripe_subscription_id from public.workspaces
     where ($1::uuid is not null and id = $1::uuid)
        or ($1::uuid is null and (stripe_subscription_id = $2 or ($3::text is not null and stripe_customer_id = $3)))
     order by (stripe_subscription_id = $2) desc nulls last
     limit 1
     for update`,
    [isUuid(ref.workspaceId) ? ref.workspaceId : null, ref.subscriptionId, ref.customerId ?? null],
  );
  return row;
}

async function applySnapshot(tx: Queryable, workspaceId: string, sub: SubscriptionSnapshot): Promise<PlanStatus> {
  const planStatus = planStatusFor(sub.status);
  await tx.query(
    `update public.workspaces set
       plan_status = $2,
       stripe_customer_id = $3,
       stripe_subscription_id = $4,
       plan_period_end = $5,
       plan_cancel_at_period_end = $6,
       past_due_since = case when $2 = 'past_due' then coalesce(past_due_since, now()) else null end,
       plan_synced_at = now()
     where id = $1`,
    [workspaceId, planStatus, sub.customerId, sub.id, sub.currentPeriodEnd?.toISOString() ?? null, sub.cancelAtPeriodEnd],
  );
  return planStatus;
}
