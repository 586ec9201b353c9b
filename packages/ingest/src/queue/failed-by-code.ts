import { withService, type Database } from '@brain/db';

/** Jobs that failed for good in the last hour, by error code (every worker's, from the jobs table). */
export async function failedJobsByCode(db: Database, withinSeconds = 3600): Promise<Record<string, number>> {
  const rows = await withService(db, (tx) =>
    tx.query<{ code: string; n: number }>(
      `select coalesce(last_error_code, 'UNKNOWN') as code, count(*)::int as n
       from jobs
       where finished_at > now() - make_interval(secs => $1) and status = 'failed'
       group by 1 order by 1`,
      [withinSeconds],
    ),
  );
  return Object.fromEntries(rows.map((r) => [r.code, r.n]));
}
