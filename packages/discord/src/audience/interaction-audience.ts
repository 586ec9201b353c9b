import type { APIInteraction } from 'discord-api-types/v10';
import type { Database } from '@brain/db';
import type { GuildFactsSource } from './guild-facts-source.ts';
import { invokingChannel } from './invoking-channel.ts';
import { resolveAskAudience, type AskAudience } from './resolve-ask-audience.ts';

/**
 * What a reply to this interaction may show. `channel`: a message everyone in the channel reads
 * (a normal /ask). `member`: an ephemeral reply only the member sees (/ask private, /sources,
 * the "Sources" button, autocomplete), judged by the member's own roles and the overwrites.
 */
export function interactionAudience(
  deps: { db: Database; guildFacts?: GuildFactsSource | undefined },
  workspaceId: string,
  interaction: APIInteraction,
  readBy: 'channel' | 'member',
): Promise<AskAudience> {
  const member = interaction.member;
  return resolveAskAudience(deps.db, deps.guildFacts, {
    workspaceId,
    guildId: interaction.guild_id,
    channel: invokingChannel(interaction),
    member: readBy === 'member' && member ? { id: member.user.id, roles: member.roles } : undefined,
  });
}
