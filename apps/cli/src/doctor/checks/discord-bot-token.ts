import { createDiscordHistory } from '@brain/discord';
import { coerceError } from '@brain/errors';
import type { DoctorCheck } from '../check.ts';
import { fail, needsConfig, pass, skip } from '../check.ts';

/** DISCORD_BOT_TOKEN, proven by asking Discord who the bot is (GET /users/@me). */
export const discordBotTokenCheck: DoctorCheck = {
  id: 'discord-bot-token',
  title: 'Discord bot token',
  async run(ctx) {
    const config = ctx.config;
    if (!config) return needsConfig;
    const token = config.discord.botToken;
    if (!token) return skip('DISCORD_BOT_TOKEN is not set: "Save thread to brain", /sync and channel audiences need it (answers still work)');
    const history = createDiscordHistory({ apiBase: config.discord.apiBase, botToken: token, timeoutMs: ctx.timeoutMs, maxRateLimitWaitMs: ctx.timeoutMs });
    try {
      const me = await history.me({ signal: AbortSignal.timeout(ctx.timeoutMs * 2) });
      ctx.botTokenAccepted = true;
      return pass(`Discord knows it as ${me.username} (${me.id})${me.bot ? '' : ', which is not a bot account'}`);
    } catch (error) {
      const appError = coerceError(error);
      if (appError.code === 'DISCORD_BOT_TOKEN_INVALID') {
        return fail('Discord rejected DISCORD_BOT_TOKEN (401)', 'In the Discord Developer Portal open the application → Bot → Reset Token, put the new token in DISCORD_BOT_TOKEN and restart the brain.');
      }
      return fail(`could not ask Discord about the bot: ${appError.message}`, appError.nextStep ?? 'Check that this machine reaches discord.com (or DISCORD_API_BASE), then run `brain doctor` again.');
    }
  },
};
