import { withService, type Database } from '@brain/db';

export { createWorkspace } from '@brain/db/testing';

export async function jobsFor(db: Database, artifactId: string) {
  return withService(db, (tx) =>
    tx.query<{ task: string; status: string; payload: { reason: string } }>(
      'select task, status, payload from jobs where artifact_id = $1 order by created_at',
      [artifactId],
    ),
  );
}
