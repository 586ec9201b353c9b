import { withWorkspace, type Database } from '@brain/db';

/** /autoanswer off: true when the channel had it on. What the bot already posted stays. */
export async function disableAutoanswer(db: Database, workspaceId: string, channelId: string): Promise<boolean> {
  const rows = await withWorkspace(db, workspaceId, (tx) =>
    tx.query('delete from public.autoanswer_channels where workspace_id = $1 and channel_id = $2 returning 1', [workspaceId, channelId]),
  );
  return rows.length > 0;
}
