import type { Queryable } from '@brain/db';
import type { InstalledGuild } from './discord-oauth.ts';

export interface InstalledWorkspace extends Record<string, unknown> {
  id: string;
  guild_id: string;
  name: string;
  claim_email: string | null;
  plan_status: 'none' | 'trialing' | 'active' | 'past_due' | 'canceled';
  /** This call created it (false: a re-install, or a concurrent install got there first). */
  created: boolean;
}

/**
 * One workspace per guild, whatever the timing: a single INSERT … ON CONFLICT (guild_id) DO
 * UPDATE, never a check-then-insert. A concurrent second install waits for the first's row and
 * updates it, so both callers get the same id. A re-install keeps the claim and the plan.
 * Run as service_role.
 */
export async function upsertInstalledWorkspace(tx: Queryable, guild: InstalledGuild): Promise<InstalledWorkspace> {
  const [row] = await tx.query<InstalledWorkspace>(
    `insert into public.workspaces (guild_id, slug, name, installed_at)
     values ($1, 'discord-' || $1, $2, now())
     on conflict (guild_id) do update
       set name = case when excluded.name = '' then workspaces.name else excluded.name end,
           installed_at = excluded.installed_at
     returning id::text, guild_id, name, claim_email, plan_status, (xmax = 0) as created`,
    [guild.id, guild.name],
  );
  if (!row) throw new Error(`the install upsert for guild ${guild.id} returned no row`);
  return row;
}
