import type { Queryable } from '@brain/db';
import type { PlanStatus } from './plan-status.ts';

export interface PlanSummary {
  workspaceId: string;
  name: string;
  claimEmail: string | null;
  planStatus: PlanStatus;
  periodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  pastDueSince: Date | null;
  stripeCustomerId: string | null;
}

/** A workspace's plan as the billing pages and /billing show it. Run as service_role. */
export async function readPlanSummary(tx: Queryable, workspaceId: string): Promise<PlanSummary | undefined> {
  const [row] = await tx.query<{
    name: string;
    claim_email: string | null;
    plan_status: PlanStatus;
    plan_period_end: Date | string | null;
    plan_cancel_at_period_end: boolean;
    past_due_since: Date | string | null;
    stripe_customer_id: string | null;
  }>(
    `select name, claim_email, plan_status, plan_period_end, plan_cancel_at_period_end, past_due_since, stripe_customer_id
     from public.workspaces where id = $1`,
    [workspaceId],
  );
  if (!row) return undefined;
  return {
    workspaceId,
    name: row.name,
    claimEmail: row.claim_email,
    planStatus: row.plan_status,
    periodEnd: row.plan_period_end ? new Date(row.plan_period_end) : null,
    cancelAtPeriodEnd: row.plan_cancel_at_period_end,
    pastDueSince: row.past_due_since ? new Date(row.past_due_since) : null,
    stripeCustomerId: row.stripe_customer_id,
  };
}
