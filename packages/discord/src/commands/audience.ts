import { SlashCommandBuilder } from '@discordjs/builders';
import { ApplicationCommandOptionType, ApplicationIntegrationType, ChannelType, InteractionContextType, type APIChatInputApplicationCommandInteraction } from 'discord-api-types/v10';
import { audienceKeys, channelAudience, type AudienceKey } from '@brain/db';
import { interactionAudience } from '../audience/interaction-audience.ts';
import { booleanOption, focusedOption, stringOption } from '../interactions/options.ts';
import { ADMIN_PERMISSIONS } from '../interactions/permissions.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { changeAudience } from '../queries/change-audience.ts';
import { searchSources } from '../queries/search-sources.ts';
import { notice } from '../render/notice.ts';
import { audienceLabel } from '../render/source-lines.ts';
import { inert, oneLine, truncate } from '../render/text.ts';

/** The channel option, as Discord resolves it: its id, type and (for a thread) parent. */
function channelChoice(interaction: APIChatInputApplicationCommandInteraction): { id: string; type: number; parentId: string | null } | undefined {
  const option = (interaction.data.options ?? []).find((o) => o.name === 'channel' && o.type === ApplicationCommandOptionType.Channel);
  if (!option || !('value' in option) || typeof option.value !== 'string') return undefined;
  const resolved = interaction.data.resolved && 'channels' in interaction.data.resolved ? interaction.data.resolved.channels?.[option.value] : undefined;
  return { id: option.value, type: resolved?.type ?? 0, parentId: resolved && 'parent_id' in resolved ? (resolved.parent_id ?? null) : null };
}

/** A public thread reads as its parent; a private thread, or a channel, as itself. */
function keyOf(channel: { id: string; type: number; parentId: string | null }): AudienceKey {
  const publicThread = channel.type === Number(ChannelType.PublicThread) || channel.type === Number(ChannelType.AnnouncementThread);
  return channelAudience(publicThread && channel.parentId ? channel.parentId : channel.id);
}

/** Admins widen a source to everyone in the server, or narrow or move it to one channel's readers; recorded. */
export const audienceCommand: SlashCommand = {
  kind: 'slash',
  adminOnly: true,
  definition: new SlashCommandBuilder()
    .setName('audience')
    .setDescription('Choose who a source may be cited to: everyone in the server, or one channel’s readers')
    .addStringOption((o) => o.setName('source').setDescription('Start typing its title or address').setRequired(true).setAutocomplete(true))
    .addChannelOption((o) => o.setName('channel').setDescription('Only the readers of this channel (or thread)'))
    .addBooleanOption((o) => o.setName('everyone').setDescription('Everyone in the server'))
    .setDefaultMemberPermissions(ADMIN_PERMISSIONS)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction) {
    const everyone = booleanOption(interaction, 'everyone') === true;
    const channel = channelChoice(interaction);
    if (!stringOption(interaction, 'source') || everyone === (channel !== undefined)) {
      return { kind: 'reply', ephemeral: true, message: notice('Pick a source, then either `channel:` (only its readers) or `everyone: True`.') };
    }
    return { kind: 'defer', ephemeral: true };
  },

  async run(ctx) {
    const sourceId = stringOption(ctx.interaction, 'source') ?? '';
    const channel = channelChoice(ctx.interaction);
    const to: AudienceKey = channel ? keyOf(channel) : 'workspace';
    const { filter } = await interactionAudience(ctx.deps, ctx.workspaceId, ctx.interaction, 'member');
    const changed = await changeAudience(ctx.deps.db, ctx.workspaceId, sourceId, to, `discord:${ctx.user.id}`, filter);
    if (!changed) return void (await ctx.responder.edit(notice("I couldn't find that source. Pick one from the list as you type its title.")));
    ctx.log.info({ sourceId, from: changed.from, to, by: ctx.user.id }, '/audience: changed a source’s audience');
    await ctx.responder.edit(
      notice(`*${inert(truncate(oneLine(changed.title ?? changed.id), 80))}* was cited to ${audienceLabel(changed.from)}; now to ${audienceLabel(to)}. The change is recorded.`),
    );
  },

  async autocomplete({ interaction, workspaceId, deps }) {
    const typed = focusedOption(interaction)?.value ?? '';
    const { filter } = await interactionAudience(deps, workspaceId, interaction, 'member');
    // Sources of unknown audience are the ones most in need of placing: always offered.
    const withUnknown = filter.kind === 'keys' ? audienceKeys([...filter.keys, 'unknown']) : filter;
    const sources = await searchSources(deps.db, workspaceId, typed.trim(), { forgotten: false, limit: 25, audience: withUnknown });
    return sources.map((s) => ({ name: truncate(oneLine(s.title ?? s.fileName ?? s.url ?? s.id), 100), value: s.id }));
  },
};
