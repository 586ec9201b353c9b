import { withService, type Database } from '@brain/db';

/**
 * Queues a refresh for every URL source indexed longer ago than `olderThanMs` that is not
 * forgotten and has no pending job. The refresh asks with If-None-Match / If-Modified-Since and
 * compares content hashes, so an unchanged page costs a request and nothing else.
 */
export async function enqueueStaleRefreshes(db: Database, olderThanMs: number, limit = 500): Promise<number> {
  const rows = await withService(db, (tx) =>
    tx.query(
      `insert into jobs (workspace_id, artifact_id, task, payload)
       select a.workspace_id, a.id, 'ingest', '{"reason":"refresh"}'::jsonb
       from artifacts a
       where a.kind = 'url' and a.forgotten_at is null and a.status = 'ready'
         and a.indexed_at < now() - make_interval(secs => $1::float8 / 1000)
         and not exists (select 1 from jobs j where j.artifact_id = a.id and j.status in ('queued', 'running'))
       order by a.indexed_at
       limit $2
       on conflict (artifact_id, task) where status in ('queued', 'running') do nothing
       returning id`,
      [olderThanMs, limit],
    ),
  );
  return rows.length;
}
