import { SlashCommandBuilder } from '@discordjs/builders';
import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  ChannelType,
  InteractionContextType,
  type APIChatInputApplicationCommandInteraction,
} from 'discord-api-types/v10';
import { DEFAULT_MAX_PER_HOUR, MAX_PER_HOUR_LIMIT, type WhenUncovered } from '../autoanswer/autoanswer-channel.ts';
import { disableAutoanswer } from '../autoanswer/disable-autoanswer.ts';
import { enableAutoanswer } from '../autoanswer/enable-autoanswer.ts';
import { listAutoanswerChannels } from '../autoanswer/list-autoanswer-channels.ts';
import { chosenSubcommand } from '../interactions/options.ts';
import { ADMIN_PERMISSIONS } from '../interactions/permissions.ts';
import type { SlashCommand } from '../interactions/types.ts';
import { autoanswerChannelsText } from '../render/autoanswer-channels.ts';
import { notice } from '../render/notice.ts';

const ANSWERABLE = [ChannelType.GuildForum, ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

interface Picked {
  sub: 'on' | 'off' | 'list';
  channelId?: string | undefined;
  channelName?: string | null | undefined;
  channelType?: number | undefined;
  whenUncovered: WhenUncovered;
  staffRoleId: string | null;
  maxPerHour: number | null;
}

function picked(interaction: APIChatInputApplicationCommandInteraction): Picked {
  const chosen = chosenSubcommand(interaction);
  const channel = chosen.channel('channel');
  const staffRole = chosen.value('staff_role', ApplicationCommandOptionType.Role);
  const maxPerHour = chosen.value('max_per_hour', ApplicationCommandOptionType.Integer);
  return {
    sub: (chosen.name ?? 'list') as Picked['sub'],
    channelId: channel?.id,
    channelName: channel ? channel.name : null,
    channelType: channel?.type,
    whenUncovered: chosen.value('when_uncovered', ApplicationCommandOptionType.String) === 'line' ? 'line' : 'reaction',
    staffRoleId: typeof staffRole === 'string' ? staffRole : null,
    maxPerHour: typeof maxPerHour === 'number' ? Math.min(MAX_PER_HOUR_LIMIT, Math.max(1, Math.floor(maxPerHour))) : null,
  };
}

/**
 * /autoanswer on|off|list: a forum or help channel whose new posts get one grounded, cited reply
 * in their thread. Admins only. The answering runs on the Gateway connection of `brain worker`
 * (or `brain start` embedded); this only records the choice.
 */
export const autoanswerCommand: SlashCommand = {
  kind: 'slash',
  adminOnly: true,
  definition: new SlashCommandBuilder()
    .setName('autoanswer')
    .setDescription('Answer new posts in a forum or help channel by themselves, from saved sources')
    .addSubcommand((s) =>
      s
        .setName('on')
        .setDescription('Every new post or thread in this channel gets one cited answer in its thread')
        .addChannelOption((o) => o.setName('channel').setDescription('The forum or help channel').setRequired(true).addChannelTypes(...ANSWERABLE))
        .addStringOption((o) =>
          o
            .setName('when_uncovered')
            .setDescription('When nothing saved covers a post: react to it (default), or say so in one short line')
            .addChoices({ name: 'react with 🔍', value: 'reaction' }, { name: 'post a short line', value: 'line' }),
        )
        .addRoleOption((o) => o.setName('staff_role').setDescription('Who “Still need help?” pings in the thread'))
        .addIntegerOption((o) =>
          o
            .setName('max_per_hour')
            .setDescription(`At most this many answers an hour in this channel (default ${DEFAULT_MAX_PER_HOUR}); past it, a short line`)
            .setMinValue(1)
            .setMaxValue(MAX_PER_HOUR_LIMIT),
        ),
    )
    .addSubcommand((s) =>
      s
        .setName('off')
        .setDescription('Stop answering new posts in a channel (answers already posted stay)')
        .addChannelOption((o) => o.setName('channel').setDescription('The channel').setRequired(true)),
    )
    .addSubcommand((s) => s.setName('list').setDescription('Channels that answer by themselves, and their settings'))
    .setDefaultMemberPermissions(ADMIN_PERMISSIONS)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .toJSON(),

  acknowledge(interaction, deps) {
    const p = picked(interaction);
    if (p.sub === 'on') {
      if (!deps.history) {
        return {
          kind: 'reply',
          ephemeral: true,
          message: notice(
            'Answering new posts needs the bot’s own Gateway connection, and this brain has no bot token. Ask the operator to set `DISCORD_BOT_TOKEN` (Developer Portal → Bot → Token) and switch on the Message Content intent there; then try again.',
          ),
        };
      }
      if (!p.channelId) return { kind: 'reply', ephemeral: true, message: notice('Pick a channel: `/autoanswer on channel: #help`.') };
      if (p.channelType !== undefined && !(ANSWERABLE as readonly number[]).includes(p.channelType)) {
        return { kind: 'reply', ephemeral: true, message: notice('I can answer new posts in forum, text and announcement channels (their threads). Pick one of those.') };
      }
    }
    if (p.sub === 'off' && !p.channelId) return { kind: 'reply', ephemeral: true, message: notice('Pick the channel: `/autoanswer off channel: #help`.') };
    return { kind: 'defer', ephemeral: true };
  },

  async run(ctx) {
    const p = picked(ctx.interaction);
    const db = ctx.deps.db;
    if (p.sub === 'on') {
      const { channel, created } = await enableAutoanswer(db, {
        workspaceId: ctx.workspaceId,
        guildId: ctx.interaction.guild_id ?? '0',
        channelId: p.channelId as string,
        channelName: p.channelName ?? null,
        whenUncovered: p.whenUncovered,
        staffRoleId: p.staffRoleId,
        maxPerHour: p.maxPerHour,
        enabledBy: `discord:${ctx.user.id}`,
      });
      ctx.log.info({ channelId: channel.channelId, created, by: ctx.user.id }, '/autoanswer on');
      const uncovered = channel.whenUncovered === 'line' ? 'post one short line saying no saved source covers it yet' : 'react to it with 🔍';
      await ctx.responder.edit(
        notice(
          `${created ? 'On' : 'Updated'}: every new post or thread in <#${channel.channelId}> gets one answer in its thread, cited from what this server saved and only from sources everyone there may read. When nothing covers a post I ${uncovered}, and nothing else. At most ${channel.maxPerHour} answer${channel.maxPerHour === 1 ? '' : 's'} an hour there. ${channel.staffRoleId ? `“Still need help?” pings <@&${channel.staffRoleId}>.` : '“Still need help?” pings nobody until you set `staff_role:`.'} Give me Send Messages in Threads and Add Reactions there.`,
        ),
      );
      return;
    }
    if (p.sub === 'off') {
      const removed = await disableAutoanswer(db, ctx.workspaceId, p.channelId as string);
      await ctx.responder.edit(
        notice(removed ? `Off: new posts in <#${p.channelId}> are no longer answered by themselves. \`/ask\` still works there.` : `<#${p.channelId}> was not answering by itself. \`/autoanswer list\` shows the ones that are.`),
      );
      return;
    }
    await ctx.responder.edit(notice(autoanswerChannelsText(await listAutoanswerChannels(db, ctx.workspaceId))));
  },
};
