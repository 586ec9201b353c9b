import { withService, type Database } from '@brain/db';

/**
 * Queues an everyone_flags rewrite for every workspace whose passages' flags lag its stored facts
 * with none queued: a rewrite that failed for good, or whose job was lost, is tried again.
 */
export async function enqueueLaggingEveryoneFlags(db: Database): Promise<number> {
  const rows = await withService(db, (tx) =>
    tx.query(
      `insert into jobs (workspace_id, task, payload, max_attempts)
       select g.workspace_id, 'everyone_flags', jsonb_build_object('reason', 'sweep'), 8
       from guild_facts g
       where not brain.everyone_flags_current(g.everyone_flags_follow, g.everyone_audiences)
         and not exists (select 1 from jobs j where j.workspace_id = g.workspace_id and j.task = 'everyone_flags' and j.status = 'running')
       on conflict (workspace_id) where task = 'everyone_flags' and status = 'queued' do nothing
       returning id`,
    ),
  );
  return rows.length;
}
