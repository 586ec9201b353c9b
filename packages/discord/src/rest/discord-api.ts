import { REST } from '@discordjs/rest';
import { Routes, type RESTPostAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';

export const DEFAULT_DISCORD_API_BASE = 'https://discord.com/api';

export interface DiscordApiOptions {
  /** Without the version: https://discord.com/api (DISCORD_API_BASE), or a fake's or the playground emulator's. */
  apiBase?: string | undefined;
  /** Only registering commands needs it; interaction webhooks authenticate with their token. */
  botToken?: string | undefined;
  /** Per request. */
  timeoutMs?: number;
  /** Network errors and 5xx; 429s are the responder's to retry (it knows the token window). */
  retries?: number;
}

/** The few Discord REST calls this bot makes, through discord.js's REST client. */
export interface DiscordApi {
  editOriginal(applicationId: string, token: string, body: unknown, signal?: AbortSignal): Promise<unknown>;
  createFollowUp(applicationId: string, token: string, body: unknown, signal?: AbortSignal): Promise<unknown>;
  putCommands(applicationId: string, commands: RESTPostAPIApplicationCommandsJSONBody[], guildId?: string): Promise<unknown>;
  /** Bot-token reads for audiences: GET /guilds/{id}, its roles and channels, and one channel or thread. */
  getGuild(guildId: string, signal?: AbortSignal): Promise<unknown>;
  getGuildRoles(guildId: string, signal?: AbortSignal): Promise<unknown>;
  getGuildChannels(guildId: string, signal?: AbortSignal): Promise<unknown>;
  getChannel(channelId: string, signal?: AbortSignal): Promise<unknown>;
}

export function createDiscordApi(options: DiscordApiOptions = {}): DiscordApi {
  const rest = new REST({
    api: (options.apiBase ?? DEFAULT_DISCORD_API_BASE).replace(/\/+$/, ''),
    version: '10',
    timeout: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 2,
    // Every 429 comes back to us as a RateLimitError with its retry_after: the responder decides
    // whether a retry still fits inside the interaction's 15-minute token window.
    rejectOnRateLimit: () => true,
  });
  if (options.botToken) rest.setToken(options.botToken);
  return {
    // auth: false: webhook routes authenticate with the interaction token; the bot token stays home.
    editOriginal: (applicationId, token, body, signal) =>
      rest.patch(Routes.webhookMessage(applicationId, token, '@original'), { body, auth: false, ...(signal ? { signal } : {}) }),
    createFollowUp: (applicationId, token, body, signal) =>
      rest.post(Routes.webhook(applicationId, token), { body, auth: false, query: new URLSearchParams({ wait: 'true' }), ...(signal ? { signal } : {}) }),
    putCommands: (applicationId, commands, guildId) =>
      rest.put(guildId ? Routes.applicationGuildCommands(applicationId, guildId) : Routes.applicationCommands(applicationId), { body: commands }),
    getGuild: (guildId, signal) => rest.get(Routes.guild(guildId), signal ? { signal } : {}),
    getGuildRoles: (guildId, signal) => rest.get(Routes.guildRoles(guildId), signal ? { signal } : {}),
    getGuildChannels: (guildId, signal) => rest.get(Routes.guildChannels(guildId), signal ? { signal } : {}),
    getChannel: (channelId, signal) => rest.get(Routes.channel(channelId), signal ? { signal } : {}),
  };
}
