import { withWorkspace, type Database, type Queryable } from '@brain/db';
import { SYNCED_CHANNEL_COLUMNS, toSyncedChannel, type SyncedChannel, type SyncedChannelRow } from './synced-channel.ts';

export interface AddSyncedChannel {
  workspaceId: string;
  guildId: string;
  channelId: string;
  channelName: string | null;
  kind: SyncedChannel['kind'];
  pinsOnly: boolean;
  addedBy: string;
}

/**
 * Starts keeping a channel in the brain (or changes `pins_only` of one already kept) and queues
 * its backfill. Adding a paused channel again resumes it: that is how an admin says "fixed".
 */
export async function addSyncedChannel(db: Database, input: AddSyncedChannel): Promise<{ channel: SyncedChannel; created: boolean }> {
  return withWorkspace(db, input.workspaceId, async (tx) => {
    const [row] = await tx.query<SyncedChannelRow & { created: boolean }>(
      `insert into synced_channels as c (workspace_id, guild_id, channel_id, channel_name, kind, pins_only, added_by)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (workspace_id, channel_id) do update set
         channel_name = coalesce(excluded.channel_name, c.channel_name),
         kind = excluded.kind,
         pins_only = excluded.pins_only,
         state = case when c.state = 'paused' then (case when c.last_synced_at is null then 'backfilling' else 'current' end) else c.state end,
         pause_code = null,
         pause_reason = null
       returning ${SYNCED_CHANNEL_COLUMNS}, (xmax = 0) as created`,
      [input.workspaceId, input.guildId, input.channelId, input.channelName, input.kind, input.pinsOnly, input.addedBy],
    );
    const channel = toSyncedChannel(row as SyncedChannelRow);
    await queueSync(tx, channel.workspaceId, channel.id, 'add');
    return { channel, created: (row as { created: boolean }).created };
  });
}

/** At most one pending pass per channel (a partial unique index): queuing twice queues once. */
export async function queueSync(tx: Queryable, workspaceId: string, syncedChannelId: string, reason: string): Promise<void> {
  await tx.query(
    `insert into jobs (workspace_id, task, payload, max_attempts)
     values ($1, 'sync_channel', jsonb_build_object('synced_channel_id', $2::text, 'reason', $3::text), 8)
     on conflict ((payload ->> 'synced_channel_id')) where task = 'sync_channel' and status in ('queued', 'running') do nothing`,
    [workspaceId, syncedChannelId, reason],
  );
}
