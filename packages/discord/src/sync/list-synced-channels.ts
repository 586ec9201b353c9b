import { withWorkspace, type Database } from '@brain/db';
import { SYNCED_CHANNEL_COLUMNS, toSyncedChannel, type SyncedChannel, type SyncedChannelRow } from './synced-channel.ts';

/** The workspace's synced channels, paused ones first (they need someone), then by name. */
export async function listSyncedChannels(db: Database, workspaceId: string): Promise<SyncedChannel[]> {
  const rows = await withWorkspace(db, workspaceId, (tx) =>
    tx.query<SyncedChannelRow>(
      `select ${SYNCED_CHANNEL_COLUMNS} from synced_channels where workspace_id = $1
       order by (state = 'paused') desc, channel_name nulls last, channel_id`,
      [workspaceId],
    ),
  );
  return rows.map(toSyncedChannel);
}
