import { withWorkspace, type Database } from '@brain/db';

/**
 * Stops keeping a channel current. What it already brought in stays answerable (each source can
 * be forgotten with /forget); its bookkeeping goes, and a pending pass is cancelled.
 */
export async function removeSyncedChannel(db: Database, workspaceId: string, channelId: string): Promise<{ removed: boolean; name: string | null; sources: number }> {
  return withWorkspace(db, workspaceId, async (tx) => {
    const [row] = await tx.query<{ id: string; channel_name: string | null; source_count: number }>(
      'delete from synced_channels where workspace_id = $1 and channel_id = $2 returning id, channel_name, source_count',
      [workspaceId, channelId],
    );
    if (!row) return { removed: false, name: null, sources: 0 };
    await tx.query(
      `delete from jobs where workspace_id = $1 and task = 'sync_channel' and status = 'queued' and payload ->> 'synced_channel_id' = $2`,
      [workspaceId, row.id],
    );
    return { removed: true, name: row.channel_name, sources: row.source_count };
  });
}
