import { withService, type Database } from '@brain/db';
import { FORGET_RETENTION_DAYS } from './source-summary.ts';

/** Deletes sources forgotten longer ago than the retention window, with their passages (cascade). */
export async function purgeForgottenSources(db: Database): Promise<number> {
  const rows = await withService(db, (tx) =>
    tx.query(
      `delete from artifacts where forgotten_at < now() - make_interval(days => $1) returning id`,
      [FORGET_RETENTION_DAYS],
    ),
  );
  return rows.length;
}
