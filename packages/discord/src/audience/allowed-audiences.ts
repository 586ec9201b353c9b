import { audienceChannelId, type AudienceKey } from '@brain/db';
import { ChannelKind, isThread, type ChannelFacts, type GuildFacts, type InvokingChannel, type MemberFacts } from './guild-facts.ts';
import { Bits, canReadChannel, channelPermissions } from './permissions.ts';
import { viewersSubset } from './viewers-subset.ts';

/**
 * The channel (or thread) a source was saved in, and its parent: who reads it there is always
 * allowed, without any guild facts. A thread's readers are among its parent's, so a source of
 * the parent is citable in its threads; a private thread's source only in that thread.
 */
function ownChannels(asked: InvokingChannel): Set<string> {
  const own = new Set([asked.id]);
  if (isThread(asked.type) && asked.parentId) own.add(asked.parentId);
  return own;
}

/** Where a channel's permissions come from: itself, or a thread's parent (with the thread, if private). */
function resolve(facts: GuildFacts, channelId: string, fallbackParentId?: string | null): { channel: ChannelFacts; privateThread: boolean } | undefined {
  const channel = facts.channels.get(channelId);
  if (channel && !isThread(channel.type)) return { channel, privateThread: false };
  const parentId = channel?.parentId ?? fallbackParentId;
  const parent = parentId ? facts.channels.get(parentId) : undefined;
  if (!parent || isThread(parent.type)) return undefined;
  return { channel: parent, privateThread: channel ? channel.type === ChannelKind.PrivateThread : true };
}

/**
 * The audience keys a normal reply in `asked` may cite, among `candidates` (the keys this
 * workspace's sources have): workspace-wide sources, the channel's own, and every channel whose
 * readers include everyone who can read `asked` (viewersSubset). Without guild facts, or for a
 * channel the facts do not describe, only the channel's own.
 */
export function channelAskAudience(facts: GuildFacts | undefined, asked: InvokingChannel, candidates: Iterable<AudienceKey>): AudienceKey[] {
  const own = ownChannels(asked);
  const target = facts ? resolve(facts, asked.id, asked.parentId) : undefined;
  const allowed: AudienceKey[] = ['workspace'];
  for (const key of candidates) {
    const id = audienceChannelId(key);
    if (id === undefined) continue;
    if (own.has(id)) {
      allowed.push(key);
      continue;
    }
    if (!facts || !target) continue;
    const source = resolve(facts, id);
    if (!source || source.privateThread) continue;
    if (viewersSubset(facts, target.channel, source.channel)) allowed.push(key);
  }
  return allowed;
}

/**
 * The audience keys a private (ephemeral) reply to `member` may cite: every source channel they
 * can read themselves (§4.1 with their roles and the overwrites). A private thread needs
 * membership, which the overwrites do not hold: it counts when asked from inside it, for members
 * who manage threads there, and for those the last sync found among its members (`memberOf`).
 */
export function privateAskAudience(
  facts: GuildFacts | undefined,
  member: MemberFacts,
  asked: InvokingChannel,
  candidates: Iterable<AudienceKey>,
  memberOf: ReadonlySet<string> = new Set(),
): AudienceKey[] {
  const own = ownChannels(asked);
  const allowed: AudienceKey[] = ['workspace'];
  for (const key of candidates) {
    const id = audienceChannelId(key);
    if (id === undefined) continue;
    if (own.has(id)) {
      allowed.push(key);
      continue;
    }
    if (!facts) continue;
    const source = resolve(facts, id);
    if (!source || !canReadChannel(facts, member, source.channel)) continue;
    if (source.privateThread && !memberOf.has(id) && (channelPermissions(facts, member, source.channel) & Bits.ManageThreads) === 0n) continue;
    allowed.push(key);
  }
  return allowed;
}
