import { ChannelType } from 'discord-api-types/v10';

/** The channel types /sync keeps, by what each becomes. */
export function syncKindOf(type: number | undefined): SyncedChannel['kind'] | undefined {
  if (type === ChannelType.GuildText) return 'text';
  if (type === ChannelType.GuildAnnouncement) return 'announcement';
  if (type === ChannelType.GuildForum) return 'forum';
  return undefined;
}

/** A channel kept in the brain by /sync, as /sync list, /sources and `brain sync list` show it. */
export interface SyncedChannel {
  id: string;
  workspaceId: string;
  guildId: string;
  channelId: string;
  channelName: string | null;
  kind: 'text' | 'announcement' | 'forum';
  pinsOnly: boolean;
  state: 'backfilling' | 'current' | 'paused';
  pauseCode: string | null;
  pauseReason: string | null;
  checkpoint: SyncCheckpoint;
  messageCount: number;
  sourceCount: number;
  lastSyncedAt: Date | null;
  addedBy: string;
}

/**
 * Where a pass over a channel stands. `run` is the job doing it: a requeued job (a killed worker)
 * keeps its id, so the pass resumes and skips the units its earlier attempt committed.
 */
export interface SyncCheckpoint {
  run?: string;
  total?: number;
  done?: number;
  /** Units that could not be read or saved this pass, with why (the first few). */
  skipped?: { unit: string; reason: string }[];
}

export interface SyncedChannelRow extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  guild_id: string;
  channel_id: string;
  channel_name: string | null;
  kind: SyncedChannel['kind'];
  pins_only: boolean;
  state: SyncedChannel['state'];
  pause_code: string | null;
  pause_reason: string | null;
  checkpoint: SyncCheckpoint;
  message_count: number;
  source_count: number;
  last_synced_at: Date | string | null;
  added_by: string;
}

export const SYNCED_CHANNEL_COLUMNS =
  'id, workspace_id, guild_id, channel_id, channel_name, kind, pins_only, state, pause_code, pause_reason, checkpoint, message_count, source_count, last_synced_at, added_by';

export function toSyncedChannel(row: SyncedChannelRow): SyncedChannel {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    guildId: row.guild_id,
    channelId: row.channel_id,
    channelName: row.channel_name,
    kind: row.kind,
    pinsOnly: row.pins_only,
    state: row.state,
    pauseCode: row.pause_code,
    pauseReason: row.pause_reason,
    checkpoint: row.checkpoint ?? {},
    messageCount: row.message_count,
    sourceCount: row.source_count,
    lastSyncedAt: row.last_synced_at ? new Date(row.last_synced_at) : null,
    addedBy: row.added_by,
  };
}

/** The backfill's progress, 0–100, when a pass knows its size. */
export function syncProgress(channel: SyncedChannel): number | null {
  const { total, done } = channel.checkpoint;
  if (!total) return null;
  return Math.min(100, Math.floor(((done ?? 0) / total) * 100));
}
