import { withService, type Database } from '@brain/db';

export async function createWorkspace(db: Database, slug: string): Promise<string> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string }>('insert into workspaces (slug, name) values ($1, $1) returning id', [slug]),
  );
  return (row as { id: string }).id;
}

export async function jobsFor(db: Database, artifactId: string) {
  return withService(db, (tx) =>
    tx.query<{ task: string; status: string; payload: { reason: string } }>(
      'select task, status, payload from jobs where artifact_id = $1 order by created_at',
      [artifactId],
    ),
  );
}
