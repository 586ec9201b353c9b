import type { Command } from 'commander';
import { addSyncedChannel, createDiscordHistory, syncKindOf } from '@brain/discord';
import { AppError } from '@brain/errors';
import { openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerSyncAdd(sync: Command): void {
  sync
    .command('add')
    .description('backfill a text, announcement or forum channel, then keep it current (the worker does the reading)')
    .argument('<channel>', 'the channel id (Discord: right-click the channel → Copy Channel ID)')
    .option('--pins-only', 'only its pinned messages')
    .option('--workspace <slug>', 'workspace (default: local)')
    .action(async (channelId: string, options: { workspace?: string; pinsOnly?: boolean }) => {
      const config = readConfig();
      if (!config.discord.botToken) {
        throw new AppError({
          code: 'SYNC_NEEDS_BOT_TOKEN',
          message: 'Syncing a channel reads its history with the bot’s own token, and DISCORD_BOT_TOKEN is not set.',
          nextStep: 'Set DISCORD_BOT_TOKEN (Developer Portal → Bot → Token), switch on the Message Content intent there, and give the bot View Channels and Read Message History.',
        });
      }
      // The channel's guild, type and name come from Discord itself, as /sync gets them from the interaction.
      const info = await createDiscordHistory({ apiBase: config.discord.apiBase, botToken: config.discord.botToken }).channel(channelId);
      const kind = syncKindOf(info.type);
      if (!kind || !('guild_id' in info) || !info.guild_id) {
        throw new AppError({ code: 'SYNC_CHANNEL_TYPE', message: `Channel ${channelId} is not a text, announcement or forum channel of a server.`, nextStep: 'Pass the id of the channel itself (for one thread, use “Save thread to brain”).' });
      }
      const db = await openConfiguredDatabase(config, 'sync add');
      try {
        const workspace = await resolveWorkspace(db, options.workspace);
        const { channel, created } = await addSyncedChannel(db, {
          workspaceId: workspace.id,
          guildId: info.guild_id,
          channelId,
          channelName: info.name ?? null,
          kind,
          pinsOnly: options.pinsOnly === true,
          addedBy: 'cli',
        });
        print.line(`${created ? 'Syncing' : 'Syncing again'} #${channel.channelName ?? channelId}: the worker (brain start or brain worker) backfills it, then re-syncs it at every sweep. Follow it with: brain sync list`);
      } finally {
        await db.close();
      }
    });
}
