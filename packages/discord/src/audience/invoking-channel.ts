import type { APIInteraction } from 'discord-api-types/v10';
import type { SourceOrigin } from '@brain/ingest';
import { ChannelKind, isThread, type InvokingChannel } from './guild-facts.ts';

/**
 * The channel an interaction came from. Discord guarantees only the partial channel's id and
 * type; a thread's parent_id usually comes along. Undefined outside a guild channel.
 */
export function invokingChannel(interaction: APIInteraction): InvokingChannel | undefined {
  const channel = interaction.channel;
  const id = channel?.id ?? interaction.channel_id;
  if (!id || !/^[0-9]{1,20}$/.test(id)) return undefined;
  const type = typeof channel?.type === 'number' ? channel.type : 0;
  const parentId = channel && 'parent_id' in channel && typeof channel.parent_id === 'string' ? channel.parent_id : null;
  return { id, type, parentId };
}

/** Where a save from this interaction lives: its channel or thread. */
export function originOfInteraction(interaction: APIInteraction, messageIds?: readonly string[]): SourceOrigin | undefined {
  const channel = invokingChannel(interaction);
  if (!channel) return undefined;
  return {
    guildId: interaction.guild_id ?? null,
    channelId: channel.id,
    thread: isThread(channel.type),
    parentId: isThread(channel.type) ? (channel.parentId ?? null) : null,
    privateThread: channel.type === ChannelKind.PrivateThread,
    messageIds,
  };
}
