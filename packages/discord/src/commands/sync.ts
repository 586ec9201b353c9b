import { SlashCommandBuilder } from '@discordjs/builders';
import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  ChannelType,
  InteractionContextType,
  type APIChatInputApplicationCommandInteraction,
} from 'discord-api-types/v10';
import { chosenSubcommand } from '../interactions/options.ts';
import { ADMIN_PERMISSIONS } from '../interactions/permissions.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { notice } from '../render/notice.ts';
import { syncedChannelsText } from '../render/synced-channels.ts';
import { addSyncedChannel } from '../sync/add-synced-channel.ts';
import { listSyncedChannels } from '../sync/list-synced-channels.ts';
import { removeSyncedChannel } from '../sync/remove-synced-channel.ts';
import { syncKindOf } from '../sync/synced-channel.ts';

interface Picked {
  sub: 'add' | 'remove' | 'list';
  channelId?: string | undefined;
  channelName?: string | null | undefined;
  channelType?: number | undefined;
  pinsOnly: boolean;
}

function picked(interaction: APIChatInputApplicationCommandInteraction): Picked {
  const chosen = chosenSubcommand(interaction);
  const channel = chosen.channel('channel');
  return {
    sub: (chosen.name ?? 'list') as Picked['sub'],
    channelId: channel?.id,
    channelName: channel ? channel.name : null,
    channelType: channel?.type,
    pinsOnly: chosen.value('pins_only', ApplicationCommandOptionType.Boolean) === true,
  };
}

/**
 * /sync add|remove|list: keeps chosen channels, forums and pins in the brain. Admins only. The
 * backfill and every later pass run in the worker; this only records the choice and queues it.
 */
export const syncCommand: SlashCommand = {
  kind: 'slash',
  adminOnly: true,
  definition: new SlashCommandBuilder()
    .setName('sync')
    .setDescription('Keep channels, forums and pins in the brain, current with edits and deletions')
    .addSubcommand((s) =>
      s
        .setName('add')
        .setDescription('Backfill a text, announcement or forum channel, then keep it current')
        .addChannelOption((o) =>
          o.setName('channel').setDescription('The channel or forum').setRequired(true).addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement, ChannelType.GuildForum),
        )
        .addBooleanOption((o) => o.setName('pins_only').setDescription('Only its pinned messages')),
    )
    .addSubcommand((s) =>
      s
        .setName('remove')
        .setDescription('Stop keeping a channel current (what it brought in stays until forgotten)')
        .addChannelOption((o) => o.setName('channel').setDescription('The channel or forum').setRequired(true)),
    )
    .addSubcommand((s) => s.setName('list').setDescription('Synced channels: state, counts, last sync'))
    .setDefaultMemberPermissions(ADMIN_PERMISSIONS)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction, deps) {
    const p = picked(interaction);
    if (p.sub === 'add') {
      if (!deps.history) {
        return {
          kind: 'reply',
          ephemeral: true,
          message: notice(
            'Syncing a channel reads its history with the bot’s own token, and this brain has none. Ask the operator to set `DISCORD_BOT_TOKEN` (Developer Portal → Bot → Token), switch on the Message Content intent there, and give the bot View Channels and Read Message History on the channel; then try again.',
          ),
        };
      }
      if (!p.channelId) return { kind: 'reply', ephemeral: true, message: notice('Pick a channel: `/sync add channel: #help`.') };
      if (p.channelType !== undefined && !syncKindOf(p.channelType)) {
        return { kind: 'reply', ephemeral: true, message: notice('I can sync text, announcement and forum channels. For one thread, use “Save thread to brain” on a message in it.') };
      }
    }
    if (p.sub === 'remove' && !p.channelId) return { kind: 'reply', ephemeral: true, message: notice('Pick the channel to stop syncing: `/sync remove channel: #help`.') };
    return { kind: 'defer', ephemeral: true };
  },

  async run(ctx) {
    const p = picked(ctx.interaction);
    const db = ctx.deps.db;
    if (p.sub === 'add') {
      const { channel, created } = await addSyncedChannel(db, {
        workspaceId: ctx.workspaceId,
        guildId: ctx.interaction.guild_id ?? '0',
        channelId: p.channelId as string,
        channelName: p.channelName ?? null,
        kind: syncKindOf(p.channelType ?? ChannelType.GuildText) ?? 'text',
        pinsOnly: p.pinsOnly,
        addedBy: `discord:${ctx.user.id}`,
      });
      ctx.log.info({ channelId: channel.channelId, created, by: ctx.user.id }, '/sync add');
      const what = channel.pinsOnly ? 'its pins' : channel.kind === 'forum' ? 'its posts (with their tags)' : 'its threads, pins and messages';
      await ctx.responder.edit(
        notice(`${created ? 'Syncing' : 'Syncing again'} <#${channel.channelId}>: reading ${what} now, then every 15 minutes for new messages, edits and deletions. Follow it with \`/sync list\`.`),
      );
      return;
    }
    if (p.sub === 'remove') {
      const removed = await removeSyncedChannel(db, ctx.workspaceId, p.channelId as string);
      await ctx.responder.edit(
        notice(
          removed.removed
            ? `Stopped syncing <#${p.channelId}>. Its ${removed.sources} sources stay in the brain; forget any of them with \`/forget\`.`
            : `<#${p.channelId}> is not synced. \`/sync list\` shows the ones that are.`,
        ),
      );
      return;
    }
    await ctx.responder.edit(notice(syncedChannelsText(await listSyncedChannels(db, ctx.workspaceId))));
  },
};
