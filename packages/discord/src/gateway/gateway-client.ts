import { ChannelType, Client, GatewayIntentBits, Partials, type Message } from 'discord.js';
import type { ThreadMessage } from '../autoanswer/thread-message.ts';
import { DEFAULT_DISCORD_API_BASE } from '../rest/discord-api.ts';

/**
 * Only what auto-answers read: guilds, channels and threads (GUILDS), messages in them
 * (GUILD_MESSAGES) with their text (MESSAGE_CONTENT, privileged: switched on in the Developer
 * Portal), and reactions on them (GUILD_MESSAGE_REACTIONS, for ✅ and 👍/👎). No member list,
 * no presences, no DMs.
 */
export const GATEWAY_INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.GuildMessageReactions];

export interface GatewayClientOptions {
  botToken: string;
  /** DISCORD_API_BASE: the gateway URL comes from its GET /gateway/bot, so a test's fake serves both. */
  apiBase?: string | undefined;
  /** How long to wait for each guild's GUILD_CREATE after READY (discord.js's default is 15 s). */
  waitGuildTimeoutMs?: number;
}

/** A discord.js client for the one Gateway session; `login` connects it. */
export function createGatewayClient(options: GatewayClientOptions): Client {
  return new Client({
    intents: GATEWAY_INTENTS,
    // Update and delete events for messages and channels discord.js has not cached.
    partials: [Partials.Channel, Partials.Message],
    rest: { api: (options.apiBase ?? DEFAULT_DISCORD_API_BASE).replace(/\/+$/, ''), version: '10' },
    waitGuildTimeout: options.waitGuildTimeoutMs ?? 15_000,
    // Nothing here is read from the member or presence caches, and messages are handled once.
    allowedMentions: { parse: [] },
  });
}

const THREAD_TYPES = new Set<number>([ChannelType.PublicThread, ChannelType.PrivateThread, ChannelType.AnnouncementThread]);

/** A discord.js message in a thread as the auto-answer reads it; undefined outside a guild thread. */
export function threadMessageOf(message: Message): ThreadMessage | undefined {
  const channel = message.channel;
  if (!message.guildId || !THREAD_TYPES.has(channel.type) || !('parentId' in channel) || !channel.parentId) return undefined;
  return {
    guildId: message.guildId,
    threadId: channel.id,
    threadType: channel.type,
    threadName: 'name' in channel && typeof channel.name === 'string' ? channel.name : '',
    parentId: channel.parentId,
    messageId: message.id,
    authorId: message.author.id,
    // System messages (thread created, pins, joins) are not questions either.
    fromBot: message.author.bot || message.webhookId !== null || message.system,
    content: message.content,
    mentionedUserIds: [...message.mentions.users.keys()],
    repliedToUserId: message.mentions.repliedUser?.id ?? null,
  };
}
