import { withService, type Database } from '@brain/db';

/**
 * Records an interaction id as acted on. True the first time, false for a replay or a second
 * delivery of the same interaction, on any instance: the primary key decides, atomically.
 */
export async function claimInteraction(db: Database, interactionId: string): Promise<boolean> {
  const rows = await withService(db, (tx) =>
    tx.query(
      'insert into public.interactions_seen (interaction_id) values ($1) on conflict (interaction_id) do nothing returning interaction_id',
      [interactionId],
    ),
  );
  return rows.length === 1;
}
