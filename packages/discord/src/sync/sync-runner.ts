import type { Database } from '@brain/db';
import { AppError } from '@brain/errors';
import type { RefreshableGuildFacts } from '../audience/guild-facts-source.ts';
import type { DiscordHistory } from '../history/discord-history.ts';
import { syncChannel, type SyncOutcome } from './sync-channel.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What the worker's sync_channel and sync_channel_days tasks call (IngestServices.syncDiscordChannel): one pass per job. */
export function createSyncRunner(db: Database, history: DiscordHistory, guildFacts?: Pick<RefreshableGuildFacts, 'refresh'>) {
  return (job: { id: string; workspaceId: string; payload: Record<string, unknown> }, signal: AbortSignal): Promise<SyncOutcome> => {
    const syncedChannelId = job.payload.synced_channel_id;
    if (typeof syncedChannelId !== 'string') {
      throw new AppError({ code: 'SYNC_JOB_INVALID', message: `sync_channel job ${job.id} names no synced channel.`, retryable: false });
    }
    const days = job.payload.days;
    if (days !== undefined && !(Array.isArray(days) && days.length > 0 && days.every((d) => typeof d === 'string' && DAY.test(d) && !Number.isNaN(Date.parse(d))))) {
      throw new AppError({ code: 'SYNC_JOB_INVALID', message: `sync_channel job ${job.id} has days that are not YYYY-MM-DD dates.`, retryable: false });
    }
    return syncChannel(db, history, { workspaceId: job.workspaceId, syncedChannelId, runId: job.id, signal, guildFacts, ...(days ? { days: days as string[] } : {}) });
  };
}
