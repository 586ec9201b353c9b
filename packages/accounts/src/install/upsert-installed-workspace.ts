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

/** Namespaces the per-guild advisory lock (the first key of pg_advisory_xact_lock(int, int)). */
const INSTALL_LOCK_SPACE = 7_246_101;

/**
 * One workspace per guild, whatever the timing: INSERT … ON CONFLICT (guild_id) DO UPDATE, never
 * a check-then-insert. A re-install keeps the claim and the plan. Run as service_role.
 *
 * ON CONFLICT arbitrates on guild_id only, and a new guild's row also carries a slug derived
 * from its id: two installs racing on a new guild would collide on that second unique index,
 * which PostgreSQL reports as an error rather than resolving. A transaction-scoped advisory
 * lock per guild makes the second install wait for the first; its upsert then meets the
 * committed row through guild_id and updates it, so both callers get the same id.
 */
export async function upsertInstalledWorkspace(tx: Queryable, guild: InstalledGuild): Promise<InstalledWorkspace> {
  await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [INSTALL_LOCK_SPACE, guild.id]);
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
