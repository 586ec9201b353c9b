import type { Database } from '@brain/db';
import { AppError } from '@brain/errors';
import type { RefreshableGuildFacts } from '../audience/guild-facts-source.ts';
import type { DiscordHistory } from '../history/discord-history.ts';
import { syncChannel, type SyncOutcome } from './sync-channel.ts';

/** What the worker's sync_channel task calls (IngestServices.syncDiscordChannel): one pass per job. */
export function createSyncRunner(db: Database, history: DiscordHistory, guildFacts?: Pick<RefreshableGuildFacts, 'refresh'>) {
  return (job: { id: string; workspaceId: string; payload: Record<string, unknown> }, signal: AbortSignal): Promise<SyncOutcome> => {
    const syncedChannelId = job.payload.synced_channel_id;
    if (typeof syncedChannelId !== 'string') {
      throw new AppError({ code: 'SYNC_JOB_INVALID', message: `sync_channel job ${job.id} names no synced channel.`, retryable: false });
    }
    return syncChannel(db, history, { workspaceId: job.workspaceId, syncedChannelId, runId: job.id, signal, guildFacts });
  };
}
