import { audienceKeys, type AudienceFilter, type AudienceKey } from '@brain/db';
import { channelAskAudience } from './allowed-audiences.ts';
import { isThread, type ChannelFacts, type GuildFacts } from './guild-facts.ts';
import { Bits } from './permissions.ts';

/** A channel no overwrite restricts and @everyone may read: every member of the server reads it. */
const EVERYONE_READS = '0';

/**
 * Among `candidates`, the audience keys every member of the server may read: 'workspace' and each
 * channel whose readers include the readers of a channel @everyone reads unrestricted (the same
 * conservative comparison as a channel ask).
 */
export function everyoneAudiences(facts: GuildFacts, candidates: Iterable<AudienceKey>): AudienceKey[] {
  const everyone: ChannelFacts = {
    id: EVERYONE_READS,
    type: 0,
    parentId: null,
    overwrites: [{ id: facts.guildId, type: 0, allow: Bits.ViewChannel | Bits.ReadMessageHistory, deny: 0n }],
  };
  const withEveryone = { ...facts, channels: new Map([...facts.channels, [EVERYONE_READS, everyone]]) };
  return channelAskAudience(withEveryone, { id: EVERYONE_READS, type: 0 }, candidates);
}

/**
 * What guild_facts.everyone_audiences stores, and chunks.readable_by_everyone follows: the
 * everyone-readable keys among the guild's own channels (a public thread's sources carry its
 * parent's key; a private thread is never everyone's).
 */
export function storedEveryoneAudiences(facts: GuildFacts): AudienceKey[] {
  const channelKeys = [...facts.channels.values()].filter((c) => !isThread(c.type)).map((c) => `channel:${c.id}` as const);
  return everyoneAudiences(facts, channelKeys).filter((k) => k !== 'workspace');
}

/**
 * `keys`, marked as exactly the everyone set when it is one, so match_artifacts searches the
 * flagged passages' own index. Only facts the stored flags follow exactly may mark it; while a
 * rewrite is pending the reply takes the by-keys path (and match_artifacts itself answers a mark
 * by keys whenever the flags lag the stored facts).
 */
export function withEveryoneMark(
  facts: GuildFacts | undefined,
  keys: readonly AudienceKey[],
  candidates: readonly AudienceKey[],
  // A caller that has just computed the everyone set (a `public` token) passes it, not again.
  everyoneKeys?: readonly AudienceKey[],
): AudienceFilter {
  const filter = audienceKeys(keys);
  if (!facts?.everyoneFlagged || filter.kind !== 'keys') return filter;
  const everyone = audienceKeys(everyoneKeys ?? everyoneAudiences(facts, candidates));
  if (everyone.kind !== 'keys' || everyone.keys.length !== filter.keys.length || !everyone.keys.every((k, i) => filter.keys[i] === k)) return filter;
  return { ...filter, everyone: true };
}
