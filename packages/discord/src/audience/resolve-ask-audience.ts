import { audienceChannelId, audienceKeys, withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import { audienceKeysWithSources } from '../queries/audience-keys-with-sources.ts';
import { privateThreadsOf } from '../sync/thread-members.ts';
import { channelAskAudience, privateAskAudience } from './allowed-audiences.ts';
import { withEveryoneMark } from './everyone-audiences.ts';
import type { InvokingChannel, MemberFacts } from './guild-facts.ts';
import type { GuildFactsSource } from './guild-facts-source.ts';

export interface AskAudienceRequest {
  workspaceId: string;
  guildId: string | undefined;
  channel: InvokingChannel | undefined;
  /** Given for a private reply: judged by this member's own permissions. */
  member?: MemberFacts | undefined;
}

export interface AskAudience {
  filter: AudienceFilter;
  /** False when the guild's roles and overwrites could not be read: only the channel's own sources count. */
  factsKnown: boolean;
}

/**
 * What a reply may cite, for the ask, the lists and the "Sources" button alike: workspace-wide
 * sources, and the channel audiences that pass the permission model. Outside a guild channel,
 * workspace-wide sources only. When that is exactly what every member may read (a public
 * channel's ask, most members' private asks), the filter says so and the search uses the
 * everyone-readable passages' own index.
 */
export async function resolveAskAudience(db: Database, source: GuildFactsSource | undefined, request: AskAudienceRequest): Promise<AskAudience> {
  const { channel, guildId } = request;
  if (!channel || !guildId) return { filter: audienceKeys(['workspace']), factsKnown: false };
  const candidates = await withWorkspace(db, request.workspaceId, (tx) => audienceKeysWithSources(tx));
  const ids = candidates.flatMap((k) => audienceChannelId(k) ?? []);
  const facts = source ? await source.facts({ workspaceId: request.workspaceId, guildId }, [channel.id, ...(channel.parentId ? [channel.parentId] : []), ...ids]) : undefined;
  const member = request.member;
  const keys = member
    ? privateAskAudience(facts, member, channel, candidates, await withWorkspace(db, request.workspaceId, (tx) => privateThreadsOf(tx, request.workspaceId, member.id)))
    : channelAskAudience(facts, channel, candidates);
  return { filter: withEveryoneMark(facts, keys, candidates), factsKnown: facts !== undefined };
}
