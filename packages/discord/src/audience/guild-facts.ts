/**
 * What the permission model needs to know about one guild, as Discord's REST API describes it
 * (GET /guilds/{id}, /guilds/{id}/roles, /guilds/{id}/channels, /channels/{id} for threads).
 * Bit sets are BigInts: Discord sends them as strings because they outgrow 2^53.
 */
export interface GuildFacts {
  guildId: string;
  ownerId: string;
  /** Every role, @everyone included (its id is the guild id). */
  roles: ReadonlyMap<string, bigint>;
  /** Channels and the threads that were looked up, by id. */
  channels: ReadonlyMap<string, ChannelFacts>;
  /**
   * True when these facts are the ones stored in guild_facts and the passages' readable_by_everyone
   * flags follow them exactly (the everyone_flags job has settled them since the everyone set last
   * changed): a reply whose allowed set is exactly the everyone set may then search by the flag.
   * Unset for facts only this process holds, and while the flags lag.
   */
  everyoneFlagged?: boolean;
}

export interface ChannelFacts {
  id: string;
  type: number;
  /** Shown by the dashboard's audience picker; absent for a channel read without one. */
  name?: string | undefined;
  parentId: string | null;
  overwrites: readonly Overwrite[];
}

export interface Overwrite {
  id: string;
  /** 0 role, 1 member. */
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

/** A guild member as an interaction carries them: their id and role ids (without @everyone). */
export interface MemberFacts {
  id: string;
  roles: readonly string[];
}

/** The channel an interaction came from: always its id and type, a thread's parent when Discord sends it. */
export interface InvokingChannel {
  id: string;
  type: number;
  parentId?: string | null | undefined;
}

export const ChannelKind = {
  GuildVoice: 2,
  GuildStageVoice: 13,
  AnnouncementThread: 10,
  PublicThread: 11,
  PrivateThread: 12,
} as const;

export function isThread(type: number): boolean {
  return type === ChannelKind.AnnouncementThread || type === ChannelKind.PublicThread || type === ChannelKind.PrivateThread;
}

export function isVoice(type: number): boolean {
  return type === ChannelKind.GuildVoice || type === ChannelKind.GuildStageVoice;
}

/** Raw REST shapes, parsed once here. */
export interface RawRole {
  id: string;
  permissions: string;
}
export interface RawChannel {
  id: string;
  type: number;
  name?: string | null;
  parent_id?: string | null;
  permission_overwrites?: { id: string; type: number; allow: string; deny: string }[];
}

export function parseGuildFacts(guild: { id: string; owner_id: string }, roles: readonly RawRole[], channels: readonly RawChannel[]): GuildFacts {
  return {
    guildId: guild.id,
    ownerId: guild.owner_id,
    roles: new Map(roles.map((r) => [r.id, BigInt(r.permissions)])),
    channels: new Map(channels.map((c) => [c.id, parseChannel(c)])),
  };
}

export function parseChannel(c: RawChannel): ChannelFacts {
  return {
    id: c.id,
    type: c.type,
    ...(c.name ? { name: c.name } : {}),
    parentId: c.parent_id ?? null,
    overwrites: (c.permission_overwrites ?? []).map((o) => ({ id: o.id, type: o.type === 1 ? 1 : 0, allow: BigInt(o.allow), deny: BigInt(o.deny) })),
  };
}
