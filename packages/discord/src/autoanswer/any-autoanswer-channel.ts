import { withService, type Database } from '@brain/db';
import { PLAYGROUND } from '../playground/playground-ids.ts';

/**
 * Whether any workspace of this deployment has a channel with /autoanswer on: without one the
 * Gateway connection has nothing to do and stays closed. The playground's pretend forum does not
 * count: its own runner answers it, and a real bot token must not connect for it. Service role:
 * it spans workspaces and reads nothing but existence.
 */
export async function anyAutoanswerChannel(db: Database): Promise<boolean> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ any: boolean }>('select exists (select 1 from public.autoanswer_channels where guild_id <> $1) as any', [PLAYGROUND.guildId]),
  );
  return row?.any === true;
}
