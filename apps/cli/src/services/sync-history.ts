import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { createCachedGuildFacts, createDiscordApi, createDiscordHistory, PLAYGROUND, PLAYGROUND_CHANNELS, type DiscordHistory, type RefreshableGuildFacts } from '@brain/discord';
import type { Logger } from '@brain/observability';
import { AppError } from '@brain/errors';

function noBotToken(): never {
  throw new AppError({
    code: 'DISCORD_BOT_TOKEN_MISSING',
    message: 'Reading a Discord channel needs DISCORD_BOT_TOKEN, and none is set.',
    nextStep: 'Set DISCORD_BOT_TOKEN (Developer Portal → Bot → Token), then run the sync again.',
    retryable: false,
  });
}

/**
 * The history the worker's sync passes read: the playground's pretend server from its own fake
 * Discord (its channel ids are fixed), every other channel with the bot token. Undefined when
 * neither exists, so the worker has no sync task at all.
 */
export function syncHistory(config: BrainConfig, pretend: DiscordHistory | undefined): DiscordHistory | undefined {
  const real = config.discord.botToken ? createDiscordHistory({ apiBase: config.discord.apiBase, botToken: config.discord.botToken }) : undefined;
  if (!pretend) return real;
  const pretendIds = new Set(PLAYGROUND_CHANNELS.map((c) => c.id));
  const pick = (channelId: string): DiscordHistory => (pretendIds.has(channelId) ? pretend : (real ?? noBotToken()));
  return {
    readAll: (id, options) => pick(id).readAll(id, options),
    channel: (id, options) => pick(id).channel(id, options),
    pins: (id, options) => pick(id).pins(id, options),
    latest: (id, options) => pick(id).latest(id, options),
    threadMembers: (id, options) => pick(id).threadMembers(id, options),
    me: (options) => (real ?? noBotToken()).me(options),
    threads: (guildId, id, options) => (guildId === PLAYGROUND.guildId ? pretend : (real ?? noBotToken())).threads(guildId, id, options),
  };
}

/**
 * What a sync pass refreshes: a real guild's facts in guild_facts, which every process's answers
 * read. The pretend server's facts never change behind the playground's back: they are stored
 * once when it starts (and again when an answer finds them older than a minute), not per pass.
 */
export function syncGuildFacts(config: BrainConfig, db: Database, logger: Logger): Pick<RefreshableGuildFacts, 'refresh'> | undefined {
  const botToken = config.discord.botToken;
  if (!botToken) return undefined;
  const real = createCachedGuildFacts({ api: createDiscordApi({ apiBase: config.discord.apiBase, botToken }), logger: logger.child({ component: 'sync-guild-facts' }), db });
  return { refresh: async (scope) => (scope.guildId === PLAYGROUND.guildId ? undefined : real.refresh(scope)) };
}
