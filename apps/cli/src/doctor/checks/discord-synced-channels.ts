import { withService } from '@brain/db';
import { createDiscordHistory, type DiscordHistory } from '@brain/discord';
import { coerceError } from '@brain/errors';
import type { DoctorCheck } from '../check.ts';
import { fail, needsDatabase, needsSchema, pass, skip } from '../check.ts';

/** Discord's channel type of a forum. */
const GUILD_FORUM = 15;
const INTENT_STEP =
  'In the Discord Developer Portal open the application → Bot → Privileged Gateway Intents, switch on Message Content Intent and save; then run `brain doctor` again.';
const ACCESS_STEP = 'In the server, give the bot’s role View Channel and Read Message History on each channel named (Edit Channel → Permissions), then run `/sync add` on it again.';

type Finding = { channel: string; problem: 'no-access' | 'no-history' | 'gone' | 'intent-off' | 'other'; detail: string };

/**
 * For every channel /sync keeps: one message read with the bot token. A 403 means the bot cannot
 * view the channel; no message where Discord says there is one means Read Message History is
 * missing (Discord then answers with an empty list, not an error); a message that arrives with
 * no content, no attachment and no embed means the Message Content intent is off.
 */
export const discordSyncedChannelsCheck: DoctorCheck = {
  id: 'discord-synced-channels',
  title: 'Discord channels kept by /sync',
  async run(ctx) {
    if (!ctx.db) return needsDatabase;
    if (!ctx.schemaCurrent) return needsSchema;
    const token = ctx.config?.discord.botToken;
    if (!token) return skip('DISCORD_BOT_TOKEN is not set (see above)');
    if (!ctx.botTokenAccepted) return skip('skipped: the bot token was not accepted (see above)');
    const channels = await withService(ctx.db, (tx) =>
      tx.query<{ channel_id: string; channel_name: string | null }>('select distinct channel_id, channel_name from synced_channels order by channel_name nulls last, channel_id'),
    );
    if (channels.length === 0) return skip('no channel is synced yet (`/sync add` or `brain sync add`)');
    const history = createDiscordHistory({ apiBase: ctx.config?.discord.apiBase, botToken: token, timeoutMs: ctx.timeoutMs, maxRateLimitWaitMs: ctx.timeoutMs });
    const findings: Finding[] = [];
    let read = 0;
    for (const c of channels) {
      const name = c.channel_name ? `#${c.channel_name}` : c.channel_id;
      const finding = await probe(history, c.channel_id, name, ctx.timeoutMs);
      if (finding) findings.push(finding);
      else read += 1;
    }
    if (findings.length === 0) return pass(`read a message in each of ${channels.length} channel(s), with its content`);
    const detail = findings.map((f) => `${f.channel}: ${f.detail}`).join('; ');
    const steps = new Set(findings.map((f) => (f.problem === 'intent-off' ? INTENT_STEP : f.problem === 'gone' ? 'Remove the deleted channel with `/sync remove` (or `brain sync remove`).' : ACCESS_STEP)));
    return fail(`${findings.length} of ${channels.length} channel(s) cannot be read as a sync needs (${read} fine) — ${detail}`, [...steps].join(' '));
  },
};

async function probe(history: DiscordHistory, channelId: string, name: string, timeoutMs: number): Promise<Finding | undefined> {
  const signal = () => AbortSignal.timeout(timeoutMs * 2);
  try {
    const info = await history.channel(channelId, { signal: signal() });
    const newest = 'last_message_id' in info ? info.last_message_id : null;
    // A forum holds no messages of its own: its newest post (a thread, whose id it keeps) does.
    const readFrom = Number(info.type) === GUILD_FORUM && newest ? newest : channelId;
    const message = await history.latest(readFrom, { signal: signal() });
    if (!message) {
      return newest
        ? { channel: name, problem: 'no-history', detail: 'Discord returned no message although the channel has some: the bot lacks Read Message History' }
        : undefined;
    }
    if (message.content === '' && message.attachments.length === 0 && message.embeds.length === 0 && (message.sticker_items ?? []).length === 0) {
      return { channel: name, problem: 'intent-off', detail: 'its newest message arrived without any content: the Message Content intent is off' };
    }
    return undefined;
  } catch (error) {
    const appError = coerceError(error);
    if (appError.code === 'DISCORD_MISSING_ACCESS') return { channel: name, problem: 'no-access', detail: 'Discord answers 403 Missing Access: the bot lacks View Channel' };
    if (appError.code === 'DISCORD_CHANNEL_NOT_FOUND') return { channel: name, problem: 'gone', detail: 'Discord says the channel no longer exists (404)' };
    return { channel: name, problem: 'other', detail: appError.message };
  }
}
