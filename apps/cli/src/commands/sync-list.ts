import type { Command } from 'commander';
import { listSyncedChannels, syncProgress } from '@brain/discord';
import { openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerSyncList(sync: Command): void {
  sync
    .command('list')
    .description('synced channels: state (backfilling %, current, paused with why), message and source counts, last sync')
    .option('--workspace <slug>', 'workspace (default: local)')
    .option('--json', 'print JSON')
    .action(async (options: { workspace?: string; json?: boolean }) => {
      const config = readConfig();
      const db = await openConfiguredDatabase(config, 'sync list');
      try {
        const workspace = await resolveWorkspace(db, options.workspace);
        const channels = await listSyncedChannels(db, workspace.id);
        if (options.json) {
          return print.json(
            channels.map((c) => ({
              channel_id: c.channelId,
              name: c.channelName,
              kind: c.kind,
              pins_only: c.pinsOnly,
              state: c.state,
              progress: c.state === 'backfilling' ? syncProgress(c) : null,
              pause_reason: c.pauseReason,
              messages: c.messageCount,
              sources: c.sourceCount,
              last_synced_at: c.lastSyncedAt?.toISOString() ?? null,
            })),
          );
        }
        if (channels.length === 0) return print.line(`No synced channels in workspace "${workspace.slug}". Add one with: brain sync add <channel id>`);
        for (const c of channels) {
          const state = c.state === 'paused' ? `paused: ${c.pauseReason ?? ''}` : c.state === 'backfilling' ? `backfilling ${syncProgress(c) ?? 0} %` : 'current';
          print.line(`${c.channelId}  #${c.channelName ?? '?'}${c.pinsOnly ? ' (pins only)' : ''}  ${state}  ${c.messageCount} messages, ${c.sourceCount} sources  last synced ${c.lastSyncedAt?.toISOString() ?? 'never'}`);
        }
      } finally {
        await db.close();
      }
    });
}
