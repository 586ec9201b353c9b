import type { GuildFacts } from './guild-facts.ts';

/** Whose facts: the workspace they are kept for (its RLS scope) and its guild. */
export interface GuildScope {
  workspaceId: string;
  guildId: string;
}

/**
 * Where guild facts come from (the bot token's REST reads, kept in the database). `channelIds`
 * are channels and threads the caller needs described beyond the guild's channel list (threads
 * are not in it). Undefined when the facts cannot be read: every caller then fails closed.
 */
export interface GuildFactsSource {
  facts(scope: GuildScope, channelIds: readonly string[]): Promise<GuildFacts | undefined>;
}

/** A source a sync pass can refresh: it reads the guild again now, whatever the facts' age. */
export interface RefreshableGuildFacts extends GuildFactsSource {
  refresh(scope: GuildScope): Promise<GuildFacts | undefined>;
}
