import { withWorkspace, type Database } from '@brain/db';

/**
 * Stops keeping a channel current. What it already brought in stays answerable (each source can
 * be forgotten with /forget); its bookkeeping goes, and a pending pass is cancelled. The keys of
 * sources someone forgot are kept (sync_forgotten_keys), so adding the channel again does not
 * bring them back, even after the forgotten artifacts were purged.
 */
export async function removeSyncedChannel(db: Database, workspaceId: string, channelId: string): Promise<{ removed: boolean; name: string | null; sources: number }> {
  return withWorkspace(db, workspaceId, async (tx) => {
    const [row] = await tx.query<{ id: string; channel_name: string | null; source_count: number }>(
      'select id, channel_name, source_count from synced_channels where workspace_id = $1 and channel_id = $2 for update',
      [workspaceId, channelId],
    );
    if (!row) return { removed: false, name: null, sources: 0 };
    await tx.query(
      `insert into sync_forgotten_keys (workspace_id, source_key)
       select s.workspace_id, s.source_key from synced_sources s left join artifacts a on a.id = s.artifact_id
       where s.workspace_id = $1 and s.synced_channel_id = $2 and (s.forgotten or a.forgotten_at is not null)
       on conflict do nothing`,
      [workspaceId, row.id],
    );
    await tx.query('delete from synced_channels where id = $1', [row.id]);
    // The tenant may not delete jobs, only settle them: a pending pass is closed as done (it has
    // nothing left to do), so the channel can be added again at once.
    await tx.query(
      `update jobs set status = 'done', finished_at = now()
       where workspace_id = $1 and task in ('sync_channel', 'sync_channel_days') and status = 'queued' and payload ->> 'synced_channel_id' = $2`,
      [workspaceId, row.id],
    );
    return { removed: true, name: row.channel_name, sources: row.source_count };
  });
}
