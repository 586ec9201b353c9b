import { isUuid, withService, type Database } from '@brain/db';
import { readUsageState } from './check-entitlement.ts';
import { decideEntitlement, workspaceNotFound } from './decide-entitlement.ts';
import { freeLimit, type Entitlement, type EntitlementPolicy, type MeteredAction } from './policy.ts';

/**
 * Counts one /save or /ask and says whether it may go ahead: call it before doing the work.
 * Deciding and counting are one conditional upsert, so at the edge of the free allowance
 * concurrent calls let exactly the allowance through; a refused use is not counted. A plan
 * (active, trialing, past_due within grace) is unmetered but still counted.
 */
export async function recordUsage(db: Database, workspaceId: string, action: MeteredAction, policy: EntitlementPolicy): Promise<Entitlement> {
  if (!isUuid(workspaceId)) return workspaceNotFound();
  const limit = freeLimit(policy, action);
  return withService(db, async (tx) => {
    const counted = await tx.query<{ used: number }>(
      `with w as (
         select id,
                (not $5::boolean
                 or plan_status in ('active', 'trialing')
                 or (plan_status = 'past_due' and coalesce(past_due_since, now()) + make_interval(days => $4::int) > now())) as unmetered
         from public.workspaces where id = $1
       )
       insert into public.usage_counters as u (workspace_id, kind, used)
       select w.id, $2, 1 from w where w.unmetered or $3::int > 0
       on conflict (workspace_id, kind) do update set used = u.used + 1, updated_at = now()
         where (select unmetered from w) or u.used < $3::int
       returning u.used`,
      [workspaceId, action, limit, policy.pastDueGraceDays, policy.billingEnabled],
    );
    const state = await readUsageState(tx, workspaceId, action, policy);
    if (!state) return workspaceNotFound();
    if (counted.length === 0) {
      // Refused and not counted. (A plan that became active in between is still honoured.)
      return decideEntitlement({ ...state, used: Math.max(state.used, limit) }, action, policy, false);
    }
    return decideEntitlement({ ...state, used: counted[0]?.used ?? state.used }, action, policy, true);
  });
}
