import type { SyncedChannel } from '../sync/synced-channel.ts';
import { syncProgress } from '../sync/synced-channel.ts';

/** One line per synced channel: state (backfilling with a percentage, current, paused with why), counts, last sync. */
export function syncedChannelLine(c: SyncedChannel): string {
  const name = `<#${c.channelId}>${c.pinsOnly ? ' (pins only)' : ''}`;
  const counts = `${c.messageCount.toLocaleString('en-US')} messages in ${c.sourceCount.toLocaleString('en-US')} sources`;
  const last = c.lastSyncedAt ? `last synced <t:${Math.floor(c.lastSyncedAt.getTime() / 1000)}:R>` : 'not synced yet';
  if (c.state === 'paused') return `⏸️ ${name} — paused: ${c.pauseReason ?? 'no reason recorded'} (${counts}, ${last})`;
  if (c.state === 'backfilling') {
    const pct = syncProgress(c);
    return `⏳ ${name} — backfilling${pct === null ? '' : ` ${pct} %`} (${counts})`;
  }
  const skipped = c.checkpoint.skipped?.length ? ` · skipped: ${c.checkpoint.skipped.map((s) => `${s.unit} (${s.reason})`).join('; ')}` : '';
  return `✅ ${name} — current (${counts}, ${last})${skipped}`;
}

export function syncedChannelsText(channels: readonly SyncedChannel[]): string {
  if (channels.length === 0) return 'No channel is synced yet. Add one with `/sync add channel:`.';
  return ['**Synced channels**', ...channels.map(syncedChannelLine)].join('\n');
}
