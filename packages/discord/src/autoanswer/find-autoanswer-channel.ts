import type { Queryable } from '@brain/db';
import { AUTOANSWER_COLUMNS, autoanswerChannelOf, type AutoanswerChannel } from './autoanswer-channel.ts';

/** The settings of one channel with /autoanswer on, inside a tenant transaction; undefined when off. */
export async function findAutoanswerChannel(tx: Queryable, workspaceId: string, channelId: string): Promise<AutoanswerChannel | undefined> {
  const [row] = await tx.query<Record<string, unknown>>(`select ${AUTOANSWER_COLUMNS} from public.autoanswer_channels where workspace_id = $1 and channel_id = $2`, [workspaceId, channelId]);
  return row ? autoanswerChannelOf(row) : undefined;
}
