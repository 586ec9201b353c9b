import { ChannelType, type APIChannel, type APIGuildForumChannel, type APIMessage, type APIThreadChannel } from 'discord-api-types/v10';
import type { SourceInput, ThreadMessage } from '@brain/ingest';
import { jumpUrl } from '../commands/save-message.ts';
import type { DiscordHistory } from '../history/discord-history.ts';
import { threadMessages } from '../history/thread-messages.ts';
import { hasSomething, readThreadSource } from './read-thread-source.ts';
import type { SyncedChannel } from './synced-channel.ts';
import type { SyncUnitKind } from './synced-sources.ts';
import { readThreadMembers } from './thread-members.ts';

// What a synced channel holds, as the units a pass compares with what was saved: its threads (a
// forum's posts), its own messages one UTC day at a time, and its pins.

/** A channel has no length limit; a sync reads all of it (one page of 100 a request). */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** One source a channel holds, read and mapped, ready to compare with what was saved. */
export interface Unit {
  kind: SyncUnitKind;
  sourceKey: string;
  discordId: string;
  day: string | null;
  label: string;
  /** Reads its messages; undefined when the unit vanished between listing and reading. */
  read(): Promise<{ input: SourceInput; messageIds: string[] } | null>;
  /** A private thread: who is in it now (null when Discord will not say). */
  members?(): Promise<string[] | null>;
}

export async function listUnits(history: DiscordHistory, channel: SyncedChannel, info: APIChannel, name: string, marked: ReadonlySet<string>, signal: AbortSignal | undefined): Promise<Unit[]> {
  const guildId = channel.guildId;
  const units: Unit[] = [];
  const isForum = info.type === ChannelType.GuildForum || channel.kind === 'forum';
  if (!channel.pinsOnly) {
    const tags = new Map(((info as APIGuildForumChannel).available_tags ?? []).map((t) => [t.id, t.name]));
    for (const thread of await history.threads(guildId, channel.channelId, { signal })) {
      units.push(threadUnit(history, guildId, thread, isForum, tags, marked, signal));
    }
    if (!isForum) units.push(...(await dayUnits(history, guildId, channel.channelId, name, signal)));
  }
  if (!isForum) {
    for (const pin of await history.pins(channel.channelId, { signal })) units.push(pinUnit(guildId, name, pin));
  }
  return units;
}

function threadUnit(history: DiscordHistory, guildId: string, thread: APIThreadChannel, isForum: boolean, tags: Map<string, string>, marked: ReadonlySet<string>, signal: AbortSignal | undefined): Unit {
  return {
    kind: isForum ? 'post' : 'thread',
    sourceKey: `discord-thread:${guildId}/${thread.id}`,
    discordId: thread.id,
    day: null,
    label: thread.name ?? thread.id,
    read: () => readThreadSource(history, { guildId, thread, isForum, tags, markedSolved: marked.has(thread.id) }, signal),
    ...(thread.type === ChannelType.PrivateThread ? { members: () => readThreadMembers(history, thread.id, signal) } : {}),
  };
}

/** The channel's own messages, one unit per UTC day, read once for all of them. */
async function dayUnits(history: DiscordHistory, guildId: string, channelId: string, name: string, signal: AbortSignal | undefined): Promise<Unit[]> {
  const raw = await history.readAll(channelId, { signal, maxMessages: NO_LIMIT });
  const messages = raw.length === 0 ? [] : threadMessages(raw, { guildId, threadId: channelId, parentId: null }).filter(hasSomething);
  const byDay = new Map<string, ThreadMessage[]>();
  for (const m of messages) {
    const day = m.at.slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), m]);
  }
  return [...byDay.entries()].map(([day, dayMessages]) => dayUnit(guildId, channelId, name, day, dayMessages));
}

/** The days a pass was asked for, each read on its own (one span of ids), and the channel's pins. */
export async function listDayUnits(history: DiscordHistory, channel: SyncedChannel, info: APIChannel, name: string, days: readonly string[], signal: AbortSignal | undefined): Promise<Unit[]> {
  if (info.type === ChannelType.GuildForum || channel.kind === 'forum') return [];
  const units: Unit[] = [];
  if (!channel.pinsOnly) {
    for (const day of new Set(days)) {
      const start = Date.parse(`${day}T00:00:00.000Z`);
      const raw = await history.readAll(channel.channelId, { signal, maxMessages: NO_LIMIT, after: String(firstSnowflakeAt(start) - 1n), until: String(firstSnowflakeAt(start + DAY_MS)) });
      const messages = threadMessages(raw, { guildId: channel.guildId, threadId: channel.channelId, parentId: null }).filter((m) => hasSomething(m) && m.at.startsWith(day));
      // A day whose messages are all gone is simply not met: the pass forgets its source.
      if (messages.length > 0) units.push(dayUnit(channel.guildId, channel.channelId, name, day, messages));
    }
  }
  for (const pin of await history.pins(channel.channelId, { signal })) units.push(pinUnit(channel.guildId, name, pin));
  return units;
}

const DAY_MS = 86_400_000;
const DISCORD_EPOCH_MS = 1_420_070_400_000n;
/** The lowest snowflake Discord can make at this millisecond. */
function firstSnowflakeAt(ms: number): bigint {
  return (BigInt(ms) - DISCORD_EPOCH_MS) << 22n;
}

export function dayKey(guildId: string, channelId: string, day: string): string {
  return `discord-channel-day:${guildId}/${channelId}/${day}`;
}

function dayUnit(guildId: string, channelId: string, name: string, day: string, dayMessages: ThreadMessage[]): Unit {
  return {
    kind: 'day' as const,
    sourceKey: dayKey(guildId, channelId, day),
    discordId: channelId,
    day,
    label: `#${name} — ${day}`,
    read: async () => ({
      input: { kind: 'discord_thread' as const, guildId, threadId: channelId, parentId: null, private: false, name: `#${name} — ${day}`, messages: dayMessages, day },
      messageIds: dayMessages.map((m) => m.id),
    }),
  };
}

function pinUnit(guildId: string, channelName: string, pin: APIMessage): Unit {
  const url = jumpUrl(guildId, pin.channel_id, pin.id);
  const author = pin.author.global_name ?? pin.author.username;
  return {
    kind: 'pin',
    sourceKey: `discord:${guildId}/${pin.channel_id}/${pin.id}`,
    discordId: pin.id,
    day: null,
    label: `a pin in #${channelName}`,
    read: async () => {
      if (!pin.content.trim() && pin.attachments.length === 0) return null;
      const input: SourceInput = {
        kind: 'discord_message',
        guildId,
        channelId: pin.channel_id,
        messageId: pin.id,
        content: pin.content,
        author,
        jumpUrl: url,
        title: `Pinned in #${channelName}: ${firstWords(pin.content) ?? `message from ${author}`}`,
        attachments: pin.attachments.map((a) => ({ id: a.id, url: a.url, fileName: a.filename, mimeType: a.content_type ?? 'application/octet-stream', size: a.size })),
      };
      return { input, messageIds: [pin.id] };
    },
  };
}

function firstWords(text: string): string | undefined {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return undefined;
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}
