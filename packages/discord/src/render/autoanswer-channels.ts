import type { AutoanswerChannel } from '../autoanswer/autoanswer-channel.ts';

/** One line per channel with /autoanswer on: what happens when nothing covers a post, who "Still need help?" pings. */
export function autoanswerChannelLine(c: AutoanswerChannel): string {
  const uncovered = c.whenUncovered === 'line' ? 'a short “no saved source covers this yet” line' : 'a 🔍 reaction';
  const staff = c.staffRoleId ? `, staff <@&${c.staffRoleId}>` : '';
  return `💬 <#${c.channelId}> — new posts answered from saved sources; nothing covers one → ${uncovered}${staff}; at most ${c.maxPerHour} an hour (since <t:${Math.floor(c.enabledAt.getTime() / 1000)}:d>)`;
}

export function autoanswerChannelsText(channels: readonly AutoanswerChannel[]): string {
  if (channels.length === 0) return 'No channel answers by itself yet. Turn it on with `/autoanswer on channel: #help`.';
  return ['**Auto-answer channels**', ...channels.map(autoanswerChannelLine)].join('\n');
}
