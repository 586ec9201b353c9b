import type { Database } from '@brain/db';
import { coerceError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import type { DiscordHistory } from '../history/discord-history.ts';
import { onSolvedReaction, onSolvedTag, type ReactionAdd, type ThreadUpdate } from '../solved/on-solved-signal.ts';
import { workspaceOfGuild } from '../queries/find-workspace-by-guild.ts';
import { queueDaySync } from '../sync/queue-day-sync.ts';
import { createThreadRefresher } from './thread-refresher.ts';

export interface GatewayEventDeps {
  db: Database;
  logger: Logger;
  history: DiscordHistory;
  botUserId: () => string | undefined;
  /** As the auto-answer's: the workspace of a guild (default the installed one). */
  workspaceOf?: ((guildId: string) => Promise<{ id: string } | undefined>) | undefined;
}

/** A raw dispatch as discord.js hands it over (Events.Raw): no cache in the way. */
export interface RawDispatch {
  t?: string | null;
  d?: unknown;
}

/**
 * The dispatches handled from their raw payloads, so uncached messages and threads (anything from
 * before this session) count as much as cached ones: ✅ reactions and solved tags mark a thread
 * solved and save it; edits and deletes refresh a thread that is a source, and queue a pass over
 * the day of a synced channel's own messages they belong to. Returns the work, or
 * undefined for a dispatch handled elsewhere (MESSAGE_CREATE) or not at all.
 */
export function createGatewayEvents(deps: GatewayEventDeps): (packet: RawDispatch) => Promise<void> | undefined {
  const refresher = createThreadRefresher(deps);
  const solvedDeps = () => ({ db: deps.db, history: deps.history, logger: deps.logger, botUserId: deps.botUserId(), workspaceOf: deps.workspaceOf });
  const guarded = (what: string, work: () => Promise<unknown>) =>
    work().then(
      () => undefined,
      (error: unknown) => deps.logger.error({ err: coerceError(error) }, `gateway: ${what} failed`),
    );
  // An edit or delete refreshes the thread it is in, when that thread is a source, and the day of
  // a synced channel's own messages it belongs to, when it is one of those: one of the two applies.
  const changed = (guildId: string, channelId: string, messageIds: string[]) =>
    Promise.all([
      refresher.changed(guildId, channelId),
      guarded('queueing a pass over edited days', async () => {
        const workspace = await workspaceOfGuild(deps, guildId);
        if (workspace && (await queueDaySync(deps.db, { workspaceId: workspace.id, channelId, messageIds }))) {
          deps.logger.info({ workspaceId: workspace.id, channelId, messages: messageIds.length }, 'gateway: queued a pass over the edited days of a synced channel');
        }
      }),
    ]).then(() => undefined);
  return (packet) => {
    const d = packet.d as Record<string, unknown> | null | undefined;
    if (!d) return undefined;
    switch (packet.t) {
      case 'MESSAGE_REACTION_ADD':
        return guarded('a ✅ reaction', () => onSolvedReaction(solvedDeps(), d as unknown as ReactionAdd));
      case 'THREAD_UPDATE':
        return guarded('a solved tag', () => onSolvedTag(solvedDeps(), d as unknown as ThreadUpdate));
      case 'MESSAGE_UPDATE': {
        const author = d.author as { id?: string; bot?: boolean } | undefined;
        // The bot's and other bots' messages are never part of a source.
        if (author?.bot || (author?.id !== undefined && author.id === deps.botUserId())) return undefined;
        return typeof d.guild_id === 'string' ? changed(d.guild_id, String(d.channel_id), [String(d.id)]) : undefined;
      }
      case 'MESSAGE_DELETE':
        return typeof d.guild_id === 'string' ? changed(d.guild_id, String(d.channel_id), [String(d.id)]) : undefined;
      case 'MESSAGE_DELETE_BULK':
        return typeof d.guild_id === 'string' ? changed(d.guild_id, String(d.channel_id), Array.isArray(d.ids) ? d.ids.map(String) : []) : undefined;
      default:
        return undefined;
    }
  };
}
