import type { ChannelFacts, GuildFacts, MemberFacts } from './guild-facts.ts';
import { isVoice } from './guild-facts.ts';

export const Bits = {
  Administrator: 1n << 3n,
  ViewChannel: 1n << 10n,
  ReadMessageHistory: 1n << 16n,
  Connect: 1n << 20n,
  ManageThreads: 1n << 34n,
} as const;

const ALL = (1n << 64n) - 1n;

/** The bits a member needs to read a channel's messages (§4.4): view + history, and connect for voice. */
export function readBits(channel: ChannelFacts): bigint {
  return Bits.ViewChannel | Bits.ReadMessageHistory | (isVoice(channel.type) ? Bits.Connect : 0n);
}

/** Base permissions (§4.1 step 1): the owner and administrators get everything. */
export function basePermissions(facts: GuildFacts, member: MemberFacts): bigint {
  if (member.id === facts.ownerId) return ALL;
  let p = facts.roles.get(facts.guildId) ?? 0n;
  for (const role of member.roles) p |= facts.roles.get(role) ?? 0n;
  return (p & Bits.Administrator) !== 0n ? ALL : p;
}

/**
 * A member's permissions in one channel (§4.1 step 2), from that channel's own overwrites:
 * @everyone's, then all of the member's roles' combined (allow beats deny across roles), then
 * the member's own.
 */
export function channelPermissions(facts: GuildFacts, member: MemberFacts, channel: ChannelFacts): bigint {
  let p = basePermissions(facts, member);
  if (p === ALL) return ALL;
  const everyone = channel.overwrites.find((o) => o.type === 0 && o.id === facts.guildId);
  if (everyone) p = (p & ~everyone.deny) | everyone.allow;
  let deny = 0n;
  let allow = 0n;
  const roles = new Set(member.roles);
  for (const o of channel.overwrites) {
    if (o.type === 0 && o.id !== facts.guildId && roles.has(o.id)) {
      deny |= o.deny;
      allow |= o.allow;
    }
  }
  p = (p & ~deny) | allow;
  const own = channel.overwrites.find((o) => o.type === 1 && o.id === member.id);
  if (own) p = (p & ~own.deny) | own.allow;
  return p;
}

export function canReadChannel(facts: GuildFacts, member: MemberFacts, channel: ChannelFacts): boolean {
  const need = readBits(channel);
  return (channelPermissions(facts, member, channel) & need) === need;
}
