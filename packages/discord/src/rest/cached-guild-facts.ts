import type { Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import { parseChannel, parseGuildFacts, type ChannelFacts, type GuildFacts, type RawChannel, type RawRole } from '../audience/guild-facts.ts';
import type { GuildScope, RefreshableGuildFacts } from '../audience/guild-facts-source.ts';
import { readGuildFacts, readGuildFactsStamp, writeGuildFacts, type RawGuildFacts } from '../audience/stored-guild-facts.ts';
import type { DiscordApi } from './discord-api.ts';

/** Roles and overwrites are re-read at most this often when asked: a change takes effect within it. */
export const GUILD_FACTS_TTL_MS = 60_000;

export interface CachedGuildFactsOptions {
  api: Pick<DiscordApi, 'getGuild' | 'getGuildRoles' | 'getGuildChannels' | 'getChannel'>;
  logger: Logger;
  /**
   * Where the facts are kept for every process (guild_facts): a refresh by any of them, a sync
   * pass's notably, is what all of them read next. Without it, this process's memory only.
   */
  db?: Database | undefined;
  ttlMs?: number;
  now?: () => number;
}

/** A thread or a channel outside the guild's channel list, looked up by id; null: not readable. */
interface ExtraChannel {
  at: number;
  channel: ChannelFacts | null;
}

/**
 * Guild facts over REST with the bot token, read again when older than ttlMs (60 s) and on every
 * refresh (each sync pass). With a database they are kept in guild_facts, so every process reads
 * the same facts; one read at a time per guild in a process. A failed read is logged and gives
 * undefined, so every caller fails closed; a channel the bot cannot read or that no longer exists
 * (403, 404) is simply not described, which is closed too.
 */
export function createCachedGuildFacts(options: CachedGuildFactsOptions): RefreshableGuildFacts {
  const ttl = options.ttlMs ?? GUILD_FACTS_TTL_MS;
  const now = options.now ?? Date.now;
  const memory = new Map<string, RawGuildFacts>();
  const reading = new Map<string, Promise<RawGuildFacts | undefined>>();
  // Threads never change parent or kind, so a per-process memory of them is as good as a shared one.
  const extras = new Map<string, Map<string, ExtraChannel>>();
  // Whether the passages' everyone flags follow exactly this read, as guild_facts said when it was
  // last looked at (every ask looks): a change of the everyone set leaves them lagging until the
  // everyone_flags job settles them.
  const flagsCurrent = new WeakMap<RawGuildFacts, boolean>();

  async function readRest(guildId: string): Promise<RawGuildFacts | undefined> {
    try {
      const fetchedAt = now();
      const [guild, roles, channels] = await Promise.all([
        options.api.getGuild(guildId) as Promise<{ id: string; owner_id: string }>,
        options.api.getGuildRoles(guildId) as Promise<RawRole[]>,
        options.api.getGuildChannels(guildId) as Promise<RawChannel[]>,
      ]);
      return { guildId: guild.id, ownerId: guild.owner_id, roles, channels, fetchedAt };
    } catch (error) {
      options.logger.warn({ err: error, guildId }, 'audiences: could not read the guild’s roles and channels; sources stay in their own channels');
      return undefined;
    }
  }

  function refreshRaw(scope: GuildScope): Promise<RawGuildFacts | undefined> {
    const inFlight = reading.get(scope.guildId);
    if (inFlight) return inFlight;
    const read = (async () => {
      const raw = await readRest(scope.guildId);
      // A failure is not kept: the next ask tries again.
      if (!raw) return undefined;
      // Stored before this process answers from them, so every process judges by the same facts.
      // Storing no longer rewrites the passages' flags: when the everyone set changed they lag,
      // and answers take the by-keys path until the everyone_flags job has run.
      if (options.db) {
        try {
          flagsCurrent.set(raw, (await writeGuildFacts(options.db, scope.workspaceId, raw)).flagsCurrent);
        } catch (error) {
          options.logger.warn({ err: error, guildId: scope.guildId }, 'audiences: could not store the guild’s facts; other processes read them at their next refresh');
        }
      }
      memory.set(scope.guildId, raw);
      return raw;
    })().finally(() => reading.delete(scope.guildId));
    reading.set(scope.guildId, read);
    return read;
  }

  async function stored(scope: GuildScope): Promise<RawGuildFacts | undefined> {
    const own = memory.get(scope.guildId);
    if (!options.db) return own;
    try {
      // Every ask looks here: only the stored read's time comes back when this process's own copy
      // is as new (on PostgreSQL an ask may also see the row from just before a concurrent
      // refresh committed: its own newer read wins), the whole row only when another process's
      // read is newer.
      const stamp = await readGuildFactsStamp(options.db, scope);
      if (own && (stamp === undefined || own.fetchedAt >= stamp.fetchedAt)) {
        // The stored row's flag state describes this copy only when it is this copy.
        flagsCurrent.set(own, stamp !== undefined && own.fetchedAt === stamp.fetchedAt && stamp.flagsCurrent);
        return own;
      }
      if (stamp === undefined) return undefined;
      const latest = await readGuildFacts(options.db, scope);
      // Kept as this process's copy, so the next ask needs only the stamp again.
      if (latest) {
        flagsCurrent.set(latest, latest.fetchedAt === stamp.fetchedAt && stamp.flagsCurrent);
        memory.set(scope.guildId, latest);
      }
      return latest;
    } catch (error) {
      options.logger.warn({ err: error, guildId: scope.guildId }, 'audiences: could not read the stored guild facts; reading them from Discord');
      return undefined;
    }
  }

  async function loadChannel(channelId: string): Promise<ChannelFacts | null> {
    try {
      return parseChannel((await options.api.getChannel(channelId)) as RawChannel);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== 403 && status !== 404) options.logger.warn({ err: error, channelId }, 'audiences: could not read a channel; its sources stay in it');
      return null;
    }
  }

  async function withExtras(guildId: string, facts: GuildFacts, channelIds: readonly string[]): Promise<GuildFacts> {
    const lookups = extras.get(guildId) ?? new Map<string, ExtraChannel>();
    extras.set(guildId, lookups);
    const missing = [...new Set(channelIds)].filter((id) => {
      if (facts.channels.has(id)) return false;
      const extra = lookups.get(id);
      return !extra || now() - extra.at >= ttl;
    });
    await Promise.all(missing.map(async (id) => lookups.set(id, { at: now(), channel: await loadChannel(id) })));
    const channels = new Map(facts.channels);
    for (const [id, extra] of lookups) if (extra.channel && !channels.has(id)) channels.set(id, extra.channel);
    return { ...facts, channels };
  }

  // A read is parsed once, not on every ask that uses it.
  const parsed = new WeakMap<RawGuildFacts, GuildFacts>();
  const parse = (raw: RawGuildFacts): GuildFacts => {
    let facts = parsed.get(raw);
    if (!facts) {
      facts = parseGuildFacts({ id: raw.guildId, owner_id: raw.ownerId }, raw.roles, raw.channels);
      parsed.set(raw, facts);
    }
    return facts;
  };
  const flaggedAsNow = (raw: RawGuildFacts, facts: GuildFacts): GuildFacts =>
    flagsCurrent.get(raw) === true ? { ...facts, everyoneFlagged: true } : facts;

  return {
    async facts(scope, channelIds) {
      let raw = await stored(scope);
      // A concurrent ask's refresh may have finished while this one read the stored stamp: its
      // copy is in memory before its read stops being in flight, so one of the two is found.
      const fresh = (r: RawGuildFacts | undefined) => r !== undefined && now() - r.fetchedAt < ttl;
      if (!fresh(raw)) raw = fresh(memory.get(scope.guildId)) ? memory.get(scope.guildId) : await refreshRaw(scope);
      return raw ? flaggedAsNow(raw, await withExtras(scope.guildId, parse(raw), channelIds)) : undefined;
    },
    async refresh(scope) {
      const raw = await refreshRaw(scope);
      return raw ? flaggedAsNow(raw, parse(raw)) : undefined;
    },
  };
}
