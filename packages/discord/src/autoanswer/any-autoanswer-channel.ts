import { withService, type Database } from '@brain/db';

/**
 * Whether any workspace of this deployment has a channel with /autoanswer on: without one the
 * Gateway connection has nothing to do and stays closed. Service role: it spans workspaces and
 * reads nothing but existence.
 */
export async function anyAutoanswerChannel(db: Database): Promise<boolean> {
  const [row] = await withService(db, (tx) => tx.query<{ any: boolean }>('select exists (select 1 from public.autoanswer_channels) as any'));
  return row?.any === true;
}
