import { withService, type Database } from '@brain/db';

/**
 * Queues a re-embedding of every artifact whose passages were embedded with another model.
 * Returns how many were queued; running it twice queues nothing new.
 */
export async function enqueueReembed(db: Database, model: string): Promise<number> {
  const rows = await withService(db, (tx) =>
    tx.query(
      `insert into jobs (workspace_id, artifact_id, task, payload)
       select distinct c.workspace_id, c.artifact_id, 'reembed', jsonb_build_object('model', $1::text)
       from chunks c
       where c.embedding_model is distinct from $1 and c.embedding is not null
       on conflict (artifact_id, task) where status in ('queued', 'running') do nothing
       returning id`,
      [model],
    ),
  );
  return rows.length;
}
