import { audienceParam, isUuid, withWorkspace, type AudienceFilter, type AudienceKey, type Database } from '@brain/db';

export interface AudienceChange {
  id: string;
  title: string | null;
  from: string;
  to: AudienceKey;
}

/**
 * Moves a source to another audience and records who did it, from what, to what, in one
 * transaction. Only a source the admin can see (`visible`), or one whose audience is unknown
 * (saved before audiences were recorded), can be moved; any other is not found.
 */
export async function changeAudience(
  db: Database,
  workspaceId: string,
  sourceId: string,
  to: AudienceKey,
  changedBy: string,
  visible: AudienceFilter,
): Promise<AudienceChange | undefined> {
  if (!isUuid(sourceId)) return undefined;
  return withWorkspace(db, workspaceId, async (tx) => {
    const [row] = await tx.query<{ title: string | null; audience: string }>(
      `select title, audience from artifacts
       where id = $1 and (audience = 'unknown' or $2::text[] is null or audience = any($2::text[]))
       for update`,
      [sourceId, audienceParam(visible)],
    );
    if (!row) return undefined;
    await tx.query('update artifacts set audience = $2 where id = $1', [sourceId, to]);
    await tx.query(
      'insert into audience_changes (workspace_id, artifact_id, changed_by, from_audience, to_audience) values ($1, $2, $3, $4, $5)',
      [workspaceId, sourceId, changedBy, row.audience, to],
    );
    return { id: sourceId, title: row.title, from: row.audience, to };
  });
}
