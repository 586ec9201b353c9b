import { audienceKeys, withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import { audienceKeysWithSources } from '../queries/audience-keys-with-sources.ts';
import { channelAskAudience } from './allowed-audiences.ts';
import { everyoneAudiences, withEveryoneMark } from './everyone-audiences.ts';
import type { GuildFactsSource } from './guild-facts-source.ts';

/**
 * An MCP token's audience from its scope and the guild's facts: 'public' reads workspace-wide
 * sources and the channels every member can read; 'channel:<id>' what a reply in that channel
 * may cite. Without facts (no bot token, no guild, a failed read): workspace-wide sources and,
 * for a channel token, that channel's own.
 */
export function createTokenAudience(db: Database, guildFacts: GuildFactsSource | undefined) {
  return async (principal: { workspaceId: string; audienceScope: 'public' | `channel:${string}` }): Promise<AudienceFilter> => {
    const { guildId, candidates } = await withWorkspace(db, principal.workspaceId, async (tx) => {
      const [row] = await tx.query<{ guild_id: string | null }>('select guild_id from workspaces where id = $1', [principal.workspaceId]);
      return { guildId: row?.guild_id ?? null, candidates: await audienceKeysWithSources(tx) };
    });
    const channelId = principal.audienceScope === 'public' ? undefined : principal.audienceScope.slice('channel:'.length);
    const ids = candidates.map((k) => k.slice('channel:'.length));
    const facts = guildId && guildFacts ? await guildFacts.facts({ workspaceId: principal.workspaceId, guildId }, channelId ? [channelId, ...ids] : ids) : undefined;
    if (channelId) {
      const type = facts?.channels.get(channelId)?.type ?? 0;
      return withEveryoneMark(facts, channelAskAudience(facts, { id: channelId, type, parentId: facts?.channels.get(channelId)?.parentId ?? null }, candidates), candidates);
    }
    if (!facts) return audienceKeys(['workspace']);
    const everyone = everyoneAudiences(facts, candidates);
    return withEveryoneMark(facts, everyone, candidates, everyone);
  };
}
