import type { Logger } from '@brain/observability';
import { parseChannel, parseGuildFacts, type ChannelFacts, type GuildFacts, type RawChannel, type RawRole } from '../audience/guild-facts.ts';
import type { GuildFactsSource } from '../audience/guild-facts-source.ts';
import type { DiscordApi } from './discord-api.ts';

/** Roles and overwrites are re-read at most this often when asked: a change takes effect within it. */
export const GUILD_FACTS_TTL_MS = 60_000;

export interface CachedGuildFactsOptions {
  api: Pick<DiscordApi, 'getGuild' | 'getGuildRoles' | 'getGuildChannels' | 'getChannel'>;
  logger: Logger;
  ttlMs?: number;
  now?: () => number;
}

interface GuildEntry {
  at: number;
  loading?: Promise<GuildFacts | undefined>;
  facts?: GuildFacts | undefined;
  /** Channels and threads outside the guild's channel list, looked up one by one; null: not readable. */
  extra: Map<string, { at: number; channel: ChannelFacts | null }>;
}

/**
 * Guild facts over REST with the bot token, cached per guild for ttlMs (60 s). A failed read is
 * logged and gives undefined, so every caller fails closed; a channel the bot cannot read or
 * that no longer exists (403, 404) is simply not described, which is closed too.
 */
export function createCachedGuildFacts(options: CachedGuildFactsOptions): GuildFactsSource {
  const ttl = options.ttlMs ?? GUILD_FACTS_TTL_MS;
  const now = options.now ?? Date.now;
  const guilds = new Map<string, GuildEntry>();

  async function loadGuild(guildId: string): Promise<GuildFacts | undefined> {
    try {
      const [guild, roles, channels] = await Promise.all([
        options.api.getGuild(guildId) as Promise<{ id: string; owner_id: string }>,
        options.api.getGuildRoles(guildId) as Promise<RawRole[]>,
        options.api.getGuildChannels(guildId) as Promise<RawChannel[]>,
      ]);
      return parseGuildFacts(guild, roles, channels);
    } catch (error) {
      options.logger.warn({ err: error, guildId }, 'audiences: could not read the guild’s roles and channels; sources stay in their own channels');
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

  return {
    async facts(guildId, channelIds) {
      let entry = guilds.get(guildId);
      if (!entry || (!entry.loading && now() - entry.at >= ttl)) {
        const fresh: GuildEntry = { at: now(), extra: new Map() };
        fresh.loading = loadGuild(guildId).then((facts) => {
          fresh.facts = facts;
          fresh.loading = undefined;
          // A failure is not cached: the next ask tries again.
          if (!facts) guilds.delete(guildId);
          return facts;
        });
        guilds.set(guildId, fresh);
        entry = fresh;
      }
      const facts = entry.loading ? await entry.loading : entry.facts;
      if (!facts) return undefined;
      const current = entry;
      const missing = [...new Set(channelIds)].filter((id) => {
        if (facts.channels.has(id)) return false;
        const known = current.extra.get(id);
        return !known || now() - known.at >= ttl;
      });
      await Promise.all(missing.map(async (id) => current.extra.set(id, { at: now(), channel: await loadChannel(id) })));
      const channels = new Map(facts.channels);
      for (const [id, known] of current.extra) if (known.channel && !channels.has(id)) channels.set(id, known.channel);
      return { ...facts, channels };
    },
  };
}
