import { withWorkspace, type Database } from '@brain/db';
import type { GuildScope } from './guild-facts-source.ts';
import { storedEveryoneAudiences } from './everyone-audiences.ts';
import { parseGuildFacts, type RawChannel, type RawRole } from './guild-facts.ts';

/** A guild's facts as the REST API gave them: what guild_facts keeps, and when they were read. */
export interface RawGuildFacts {
  guildId: string;
  ownerId: string;
  roles: RawRole[];
  channels: RawChannel[];
  fetchedAt: number;
}

type GuildFactsRow = {
  guild_id: string;
  owner_id: string;
  roles: RawRole[] | string;
  channels: RawChannel[] | string;
  fetched_at: Date | string;
};

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** The workspace's stored facts, when they are about this guild (a reinstalled workspace's old guild's are not). */
export async function readGuildFacts(db: Database, scope: GuildScope): Promise<RawGuildFacts | undefined> {
  const [row] = await withWorkspace(db, scope.workspaceId, (tx) =>
    tx.query<GuildFactsRow>('select guild_id, owner_id, roles, channels, fetched_at from public.guild_facts where workspace_id = $1', [scope.workspaceId]),
  );
  if (!row || row.guild_id !== scope.guildId) return undefined;
  return { guildId: row.guild_id, ownerId: row.owner_id, roles: json(row.roles), channels: json(row.channels), fetchedAt: new Date(row.fetched_at).getTime() };
}

/**
 * When the stored facts about this guild were read, without them: a process whose own copy is as
 * new needs no more. With it, whether the passages' everyone flags follow exactly those facts (a
 * rewrite job settles them after every change of the everyone set; 20261202160000).
 */
export async function readGuildFactsStamp(db: Database, scope: GuildScope): Promise<{ fetchedAt: number; flagsCurrent: boolean } | undefined> {
  const [row] = await withWorkspace(db, scope.workspaceId, (tx) =>
    tx.query<{ fetched_at: Date | string; flags_current: boolean }>(
      `select fetched_at, brain.everyone_flags_current(everyone_flags_follow, everyone_audiences) as flags_current
         from public.guild_facts where workspace_id = $1 and guild_id = $2`,
      [scope.workspaceId, scope.guildId],
    ),
  );
  return row ? { fetchedAt: new Date(row.fetched_at).getTime(), flagsCurrent: row.flags_current } : undefined;
}

/**
 * Keeps what was read, unless another process stored a later read meanwhile: two readers racing
 * never put older facts back. With them, the channels every member may read. The passages' flags
 * are not rewritten here: a change of that set queues the everyone_flags job (20261202160000), so
 * storing facts stays one row's write. Returns whether the flags follow the facts as stored by this
 * write (false when the set changed, or when a later read was already stored).
 */
export async function writeGuildFacts(db: Database, workspaceId: string, facts: RawGuildFacts): Promise<{ flagsCurrent: boolean }> {
  const channels = facts.channels.map((c) => ({ id: c.id, type: c.type, name: c.name ?? null, parent_id: c.parent_id ?? null, permission_overwrites: c.permission_overwrites ?? [] }));
  const roles = facts.roles.map((r) => ({ id: r.id, permissions: r.permissions }));
  const everyone = storedEveryoneAudiences(parseGuildFacts({ id: facts.guildId, owner_id: facts.ownerId }, facts.roles, facts.channels));
  const [row] = await withWorkspace(db, workspaceId, (tx) =>
    tx.query<{ flags_current: boolean }>(
      `insert into public.guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at, everyone_audiences)
       values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7::text[])
       on conflict (workspace_id) do update
         set guild_id = excluded.guild_id, owner_id = excluded.owner_id, roles = excluded.roles,
             channels = excluded.channels, fetched_at = excluded.fetched_at,
             everyone_audiences = excluded.everyone_audiences
         where public.guild_facts.fetched_at <= excluded.fetched_at or public.guild_facts.guild_id <> excluded.guild_id
       returning brain.everyone_flags_current(everyone_flags_follow, everyone_audiences) as flags_current`,
      [workspaceId, facts.guildId, facts.ownerId, JSON.stringify(roles), JSON.stringify(channels), new Date(facts.fetchedAt).toISOString(), everyone],
    ),
  );
  return { flagsCurrent: row?.flags_current ?? false };
}
