import { PermissionFlagsBits } from 'discord-api-types/v10';
import { parseGuildFacts } from '../audience/guild-facts.ts';
import { canReadChannel } from '../audience/permissions.ts';
import { PLAYGROUND } from './playground-ids.ts';
import { PRETEND_SERVER, type PretendChannel } from './playground-seed.ts';

/** The pretend server's channels: #general with a thread, a staff-only #staff, and the #help forum with its posts. */
export const PLAYGROUND_CHANNELS: readonly PretendChannel[] = PRETEND_SERVER.channels;

export type PlaygroundPersona = 'member' | 'moderator';

const EVERYONE_PERMISSIONS = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;

/** Who you are at the playground: a member (no roles), or a moderator (the Moderator role, who manages the server). */
export const PLAYGROUND_PERSONAS: Record<PlaygroundPersona, { label: string; roles: string[]; permissions: bigint }> = {
  member: { label: 'Member', roles: [], permissions: EVERYONE_PERMISSIONS },
  moderator: { label: 'Moderator', roles: [PLAYGROUND.moderatorRoleId], permissions: EVERYONE_PERMISSIONS | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageThreads },
};

/**
 * The pretend server's guild, roles and channels with their overwrites, in the shape Discord's
 * REST API returns them: what the playground's fake Discord serves to the bot token.
 */
export function pretendGuild() {
  return {
    id: PLAYGROUND.guildId,
    owner_id: PLAYGROUND.ownerId,
    name: PLAYGROUND.guildName,
    roles: [
      { id: PLAYGROUND.guildId, name: '@everyone', permissions: String(EVERYONE_PERMISSIONS) },
      { id: PLAYGROUND.moderatorRoleId, name: 'Moderator', permissions: String(PLAYGROUND_PERSONAS.moderator.permissions) },
    ],
    channels: PLAYGROUND_CHANNELS.map((c) => ({
      id: c.id,
      type: c.type,
      name: c.name,
      parent_id: c.parentId,
      permission_overwrites: c.staffOnly
        ? [
            { id: PLAYGROUND.guildId, type: 0 as const, allow: '0', deny: String(PermissionFlagsBits.ViewChannel) },
            { id: PLAYGROUND.moderatorRoleId, type: 0 as const, allow: String(PermissionFlagsBits.ViewChannel), deny: '0' },
          ]
        : [],
    })),
  };
}

/**
 * The pretend server's channels a persona can view, judged by the same permission model as
 * answers (a thread or forum post by its parent): the member never sees #staff in the sidebar.
 */
export function playgroundChannelsFor(persona: PlaygroundPersona, channels: readonly PretendChannel[] = PLAYGROUND_CHANNELS): PretendChannel[] {
  const guild = pretendGuild();
  const facts = parseGuildFacts(guild, guild.roles, guild.channels);
  const member = { id: PLAYGROUND.userId, roles: PLAYGROUND_PERSONAS[persona].roles };
  // A post made in the playground is not among the guild's seeded channels: its forum decides.
  return channels.filter((c) => {
    const judged = facts.channels.get(c.parentId ?? c.id);
    return judged !== undefined && canReadChannel(facts, member, judged);
  });
}
