import type { Command } from 'commander';
import { removeSyncedChannel } from '@brain/discord';
import { openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerSyncRemove(sync: Command): void {
  sync
    .command('remove')
    .description('stop keeping a channel current; what it brought in stays until forgotten')
    .argument('<channel>', 'the channel id')
    .option('--workspace <slug>', 'workspace (default: local)')
    .action(async (channelId: string, options: { workspace?: string }) => {
      const config = readConfig();
      const db = await openConfiguredDatabase(config, 'sync remove');
      try {
        const workspace = await resolveWorkspace(db, options.workspace);
        const removed = await removeSyncedChannel(db, workspace.id, channelId);
        print.line(removed.removed ? `Stopped syncing #${removed.name ?? channelId}; its ${removed.sources} sources stay (brain sources, /forget).` : `Channel ${channelId} is not synced (brain sync list).`);
      } finally {
        await db.close();
      }
    });
}
