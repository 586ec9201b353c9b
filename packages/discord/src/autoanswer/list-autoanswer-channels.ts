import { withWorkspace, type Database } from '@brain/db';
import { AUTOANSWER_COLUMNS, autoanswerChannelOf, type AutoanswerChannel } from './autoanswer-channel.ts';

export async function listAutoanswerChannels(db: Database, workspaceId: string): Promise<AutoanswerChannel[]> {
  const rows = await withWorkspace(db, workspaceId, (tx) =>
    tx.query<Record<string, unknown>>(`select ${AUTOANSWER_COLUMNS} from public.autoanswer_channels where workspace_id = $1 order by created_at, channel_id`, [workspaceId]),
  );
  return rows.map(autoanswerChannelOf);
}
