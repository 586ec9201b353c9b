import type { GuildFacts } from './guild-facts.ts';

/**
 * Where guild facts come from (the bot token's REST reads, cached). `channelIds` are channels
 * and threads the caller needs described beyond the guild's channel list (threads are not in
 * it). Undefined when the facts cannot be read: every caller then fails closed.
 */
export interface GuildFactsSource {
  facts(guildId: string, channelIds: readonly string[]): Promise<GuildFacts | undefined>;
}
