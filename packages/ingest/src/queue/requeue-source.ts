import { isUuid, withWorkspace, type Database } from '@brain/db';
import { AppError } from '@brain/errors';
import { sourceNotFound } from '../sources/get-source.ts';

export interface RequeueSourceResult {
  id: string;
  title: string | null;
  /** False when an ingestion job for it was already queued or running: nothing new was added. */
  queued: boolean;
}

/**
 * Re-indexes one source now (the dashboard's "Re-index"): queues an ingest job for it, at most
 * one pending per source. A failed source goes back to queued with its error cleared; a ready
 * one keeps answering from its current passages until the new version is swapped in. Unchanged
 * content costs a fetch and a hash and embeds nothing. A forgotten source is restored first.
 */
export async function requeueSource(db: Database, workspaceId: string, sourceId: string): Promise<RequeueSourceResult> {
  if (!isUuid(sourceId)) throw sourceNotFound(sourceId);
  return withWorkspace(db, workspaceId, async (tx) => {
    const [artifact] = await tx.query<{ title: string | null; forgotten: boolean }>(
      'select title, forgotten_at is not null as forgotten from artifacts where id = $1 for update',
      [sourceId],
    );
    if (!artifact) throw sourceNotFound(sourceId);
    if (artifact.forgotten) {
      throw new AppError({
        code: 'SOURCE_FORGOTTEN',
        message: `Source ${sourceId} is forgotten; it is not re-indexed.`,
        userMessage: `"${artifact.title ?? sourceId}" is forgotten.`,
        nextStep: 'Restore it first; it is then re-indexed with everything else.',
        httpStatus: 409,
      });
    }
    const jobs = await tx.query(
      `insert into jobs (workspace_id, artifact_id, task, payload)
       values ($1, $2, 'ingest', '{"reason":"reindex"}'::jsonb)
       on conflict (artifact_id, task) where status in ('queued', 'running') do nothing
       returning id`,
      [workspaceId, sourceId],
    );
    if (jobs.length > 0) {
      await tx.query(
        `update artifacts set status = 'queued', error_code = null, error_message = null where id = $1 and status = 'failed'`,
        [sourceId],
      );
    }
    return { id: sourceId, title: artifact.title, queued: jobs.length > 0 };
  });
}
