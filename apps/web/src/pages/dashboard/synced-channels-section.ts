import { syncProgress, type SyncedChannel } from '@brain/discord';
import { html, type SafeHtml } from '../../html/html.ts';
import { when } from './layout.ts';

function stateCell(c: SyncedChannel): SafeHtml {
  if (c.state === 'paused') return html`<span class="badge bad">paused</span><div class="error">${c.pauseReason ?? 'no reason recorded'}</div>`;
  if (c.state === 'backfilling') {
    const pct = syncProgress(c);
    return html`<span class="badge">backfilling${pct === null ? '' : ` ${pct} %`}</span>`;
  }
  return html`<span class="badge good">current</span>`;
}

/** Channels kept by /sync: state (backfilling with a percentage, current, paused with why), counts, last sync. */
export function syncedChannelsSection(channels: readonly SyncedChannel[]): SafeHtml {
  if (channels.length === 0) return html``;
  return html`<h2>Synced channels</h2>
<table id="synced-channels"><thead><tr><th>Channel</th><th>State</th><th>Messages</th><th>Sources</th><th>Last sync</th></tr></thead><tbody>
${channels.map(
  (c) => html`<tr data-channel-id="${c.channelId}" data-state="${c.state}"><td>#${c.channelName ?? c.channelId}<div class="meta">${c.kind}${c.pinsOnly ? ' · pins only' : ''}</div></td>
<td>${stateCell(c)}</td><td>${c.messageCount.toLocaleString('en-US')}</td><td>${c.sourceCount.toLocaleString('en-US')}</td><td>${c.lastSyncedAt ? when(c.lastSyncedAt) : 'not yet'}</td></tr>`,
)}</tbody></table>`;
}
