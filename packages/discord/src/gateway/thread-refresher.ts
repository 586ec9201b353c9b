import type { Database } from '@brain/db';
import { coerceError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import type { DiscordHistory } from '../history/discord-history.ts';
import { workspaceOfGuild } from '../queries/find-workspace-by-guild.ts';
import { refreshThreadSource } from '../solved/refresh-thread-source.ts';

export interface ThreadRefresher {
  /** An edit or delete happened in this channel: refresh its thread source, if it is one. */
  changed(guildId: string, channelId: string): Promise<void>;
}

/**
 * MESSAGE_UPDATE and MESSAGE_DELETE in a thread that is a source re-read it and save it again
 * (refreshThreadSource: the sync's own read and save). A burst of edits in one thread is one
 * refresh running and at most one more after it, not one per event.
 */
export function createThreadRefresher(deps: { db: Database; history: DiscordHistory; logger: Logger; workspaceOf?: ((guildId: string) => Promise<{ id: string } | undefined>) | undefined }): ThreadRefresher {
  const running = new Map<string, { again: boolean; done: Promise<void> }>();
  const refreshOnce = async (guildId: string, channelId: string) => {
    const workspace = await workspaceOfGuild(deps, guildId);
    if (!workspace) return;
    const result = await refreshThreadSource(deps.db, deps.history, { workspaceId: workspace.id, guildId, threadId: channelId, savedBy: 'discord:gateway', onlyIfSaved: true });
    if (result.status !== 'not-a-source') deps.logger.info({ workspaceId: workspace.id, threadId: channelId, status: result.status }, 'gateway: thread source refreshed after an edit or delete');
  };
  return {
    changed(guildId, channelId) {
      const key = `${guildId}/${channelId}`;
      const current = running.get(key);
      if (current) {
        current.again = true;
        return current.done;
      }
      const entry = { again: false, done: Promise.resolve() };
      entry.done = (async () => {
        try {
          do {
            entry.again = false;
            await refreshOnce(guildId, channelId);
          } while (entry.again);
        } catch (error) {
          deps.logger.error({ err: coerceError(error), threadId: channelId }, 'gateway: could not refresh the thread source');
        } finally {
          running.delete(key);
        }
      })();
      running.set(key, entry);
      return entry.done;
    },
  };
}
