import { withService, type Database } from '@brain/db';

/** Forgets ids older than `olderThanMs`: past the signature freshness window they cannot come back. */
export async function pruneInteractionsSeen(db: Database, olderThanMs: number): Promise<number> {
  const rows = await withService(db, (tx) =>
    tx.query('delete from public.interactions_seen where received_at < now() - make_interval(secs => $1::float8 / 1000) returning interaction_id', [
      olderThanMs,
    ]),
  );
  return rows.length;
}
