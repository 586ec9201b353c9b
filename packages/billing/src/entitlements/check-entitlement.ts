import { isUuid, withService, type Database, type Queryable } from '@brain/db';
import type { PlanStatus } from '../plan-status.ts';
import { decideEntitlement, workspaceNotFound, type UsageState } from './decide-entitlement.ts';
import { type Entitlement, type EntitlementPolicy, type MeteredAction } from './policy.ts';

/**
 * May this workspace /save or /ask now? Read-only: use it to show where a workspace stands.
 * To let a use through, call recordUsage, which decides and counts in one statement.
 */
export async function checkEntitlement(db: Database, workspaceId: string, action: MeteredAction, policy: EntitlementPolicy): Promise<Entitlement> {
  if (!isUuid(workspaceId)) return workspaceNotFound();
  const state = await withService(db, (tx) => readUsageState(tx, workspaceId, action, policy));
  return state ? decideEntitlement(state, action, policy, false) : workspaceNotFound();
}

export async function readUsageState(tx: Queryable, workspaceId: string, action: MeteredAction, policy: EntitlementPolicy): Promise<UsageState | undefined> {
  const [row] = await tx.query<{ plan_status: PlanStatus; in_grace: boolean; grace_ends: Date | string | null; used: number }>(
    `select w.plan_status,
            (w.plan_status = 'past_due' and coalesce(w.past_due_since, now()) + make_interval(days => $3::int) > now()) as in_grace,
            case when w.plan_status = 'past_due' then coalesce(w.past_due_since, now()) + make_interval(days => $3::int) end as grace_ends,
            coalesce(u.used, 0) as used
     from public.workspaces w
     left join public.usage_counters u on u.workspace_id = w.id and u.kind = $2
     where w.id = $1`,
    [workspaceId, action, policy.pastDueGraceDays],
  );
  if (!row) return undefined;
  return {
    workspaceId,
    planStatus: row.plan_status,
    inGrace: row.in_grace,
    graceEnds: row.grace_ends ? new Date(row.grace_ends) : null,
    used: row.used,
  };
}
