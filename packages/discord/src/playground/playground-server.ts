import { PermissionFlagsBits } from 'discord-api-types/v10';
import { parseGuildFacts, type GuildFacts } from '../audience/guild-facts.ts';
import type { GuildFactsSource } from '../audience/guild-facts-source.ts';
import { PLAYGROUND } from './playground-ids.ts';

/** The pretend server's channels: a public one and a staff-only one. */
export const PLAYGROUND_CHANNELS = [
  { id: PLAYGROUND.channelId, name: PLAYGROUND.channelName, topic: 'Save what your team knows; ask, and get answers with sources.' },
  { id: PLAYGROUND.staffChannelId, name: PLAYGROUND.staffChannelName, topic: 'Moderators only: @everyone cannot see this channel.' },
] as const;

export type PlaygroundPersona = 'member' | 'moderator';

const EVERYONE_PERMISSIONS = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;

/** Who you are at the playground: a member (no roles), or a moderator (the Moderator role, who manages the server). */
export const PLAYGROUND_PERSONAS: Record<PlaygroundPersona, { label: string; roles: string[]; permissions: bigint }> = {
  member: { label: 'Member', roles: [], permissions: EVERYONE_PERMISSIONS },
  moderator: { label: 'Moderator', roles: [PLAYGROUND.moderatorRoleId], permissions: EVERYONE_PERMISSIONS | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageThreads },
};

/** The pretend server as the bot token would read it over REST. */
export function playgroundGuildFacts(): GuildFacts {
  return parseGuildFacts(
    { id: PLAYGROUND.guildId, owner_id: PLAYGROUND.ownerId },
    [
      { id: PLAYGROUND.guildId, permissions: String(EVERYONE_PERMISSIONS) },
      { id: PLAYGROUND.moderatorRoleId, permissions: String(PLAYGROUND_PERSONAS.moderator.permissions) },
    ],
    [
      { id: PLAYGROUND.channelId, type: 0, permission_overwrites: [] },
      {
        id: PLAYGROUND.staffChannelId,
        type: 0,
        permission_overwrites: [
          { id: PLAYGROUND.guildId, type: 0, allow: '0', deny: String(PermissionFlagsBits.ViewChannel) },
          { id: PLAYGROUND.moderatorRoleId, type: 0, allow: String(PermissionFlagsBits.ViewChannel), deny: '0' },
        ],
      },
    ],
  );
}

export const playgroundGuildFactsSource: GuildFactsSource = { facts: async () => playgroundGuildFacts() };
