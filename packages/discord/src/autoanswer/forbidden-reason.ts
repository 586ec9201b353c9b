import type { DiscordAPIError } from '@discordjs/rest';

/**
 * Discord's 403s on a post: the bot may not write in this thread (Missing Access, Missing
 * Permissions). By shape, not instanceof: discord.js requires @discordjs/rest's CommonJS build,
 * and this ES module imports the other, so its errors are another class of the same name.
 */
export function forbiddenReason(caught: unknown): string | undefined {
  const error = caught as Partial<DiscordAPIError> | null;
  if (!(caught instanceof Error) || !caught.name.startsWith('DiscordAPIError') || error?.status !== 403) return undefined;
  const what = error.code === 50001 ? '50001 Missing Access' : error.code === 50013 ? '50013 Missing Permissions' : `${String(error.code)} ${error.message}`;
  return `Discord refused the post (403, ${what}): give the bot View Channel and Send Messages in Threads in this channel`;
}
