import { withService, type Database } from '@brain/db';

/** The workers holding running jobs whose ids start with `prefix` (a worker id starts with its host name). */
export async function runningJobHolders(db: Database, prefix: string): Promise<string[]> {
  const rows = await withService(db, (tx) =>
    tx.query<{ locked_by: string }>(
      `select distinct locked_by from jobs where status = 'running' and locked_by is not null and left(locked_by, length($1)) = $1`,
      [prefix],
    ),
  );
  return rows.map((r) => r.locked_by);
}
