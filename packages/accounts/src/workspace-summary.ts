import type { Queryable } from '@brain/db';

export type PlanStatus = 'none' | 'trialing' | 'active' | 'past_due' | 'canceled';

export interface WorkspaceSummary {
  id: string;
  name: string;
  guildId: string | null;
  claimEmail: string | null;
  planStatus: PlanStatus;
}

/** The few facts the install, claim and billing pages show. Run as service_role. */
export async function getWorkspaceSummary(tx: Queryable, workspaceId: string): Promise<WorkspaceSummary | undefined> {
  const [row] = await tx.query<{ id: string; name: string; guild_id: string | null; claim_email: string | null; plan_status: PlanStatus }>(
    `select id::text, name, guild_id, claim_email, plan_status from public.workspaces where id = $1`,
    [workspaceId],
  );
  if (!row) return undefined;
  return { id: row.id, name: row.name, guildId: row.guild_id, claimEmail: row.claim_email, planStatus: row.plan_status };
}
