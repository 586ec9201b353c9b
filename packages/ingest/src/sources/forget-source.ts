import { audienceParam, isUuid, withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import { AppError } from '@brain/errors';
import { sourceNotFound } from './get-source.ts';
import { FORGET_RETENTION_DAYS } from './source-summary.ts';

export interface ForgetReceipt {
  id: string;
  title: string | null;
  passages: number;
  forgottenAt: Date;
  restorableUntil: Date;
}

/**
 * Takes a source out of every answer at once (its passages stop being live) without deleting
 * anything: it can be restored for FORGET_RETENTION_DAYS, after which the sweeper deletes it.
 * Only a source the caller's audience can see; any other is not found.
 */
export async function forgetSource(db: Database, workspaceId: string, sourceId: string, options: { audience: AudienceFilter }): Promise<ForgetReceipt> {
  if (!isUuid(sourceId)) throw sourceNotFound(sourceId);
  return withWorkspace(db, workspaceId, async (tx) => {
    const [row] = await tx.query<{ title: string | null; forgotten_at: Date; was_forgotten: boolean }>(
      `with before as (select forgotten_at from artifacts where id = $1)
       update artifacts set forgotten_at = coalesce(forgotten_at, now())
       where id = $1 and ($2::text[] is null or audience = any($2::text[]))
       returning title, forgotten_at, (select forgotten_at is not null from before) as was_forgotten`,
      [sourceId, audienceParam(options.audience)],
    );
    if (!row) throw sourceNotFound(sourceId);
    const hidden = await tx.query('update chunks set is_live = false where artifact_id = $1 returning id', [sourceId]);
    const forgottenAt = new Date(row.forgotten_at);
    return {
      id: sourceId,
      title: row.title,
      passages: hidden.length,
      forgottenAt,
      restorableUntil: new Date(forgottenAt.getTime() + FORGET_RETENTION_DAYS * 86_400_000),
    };
  });
}

/** Brings a forgotten source back into answers, within the retention window; only one the caller's audience can see. */
export async function restoreSource(
  db: Database,
  workspaceId: string,
  sourceId: string,
  options: { audience: AudienceFilter },
): Promise<{ id: string; title: string | null; passages: number }> {
  if (!isUuid(sourceId)) throw sourceNotFound(sourceId);
  return withWorkspace(db, workspaceId, async (tx) => {
    const [row] = await tx.query<{ title: string | null; forgotten_at: Date | null }>(
      'select title, forgotten_at from artifacts where id = $1 and ($2::text[] is null or audience = any($2::text[])) for update',
      [sourceId, audienceParam(options.audience)],
    );
    if (!row) throw sourceNotFound(sourceId);
    if (!row.forgotten_at) {
      throw new AppError({
        code: 'SOURCE_NOT_FORGOTTEN',
        message: `Source ${sourceId} is not forgotten.`,
        userMessage: `"${row.title ?? sourceId}" is not forgotten; it is already used in answers.`,
        httpStatus: 409,
      });
    }
    await tx.query('update artifacts set forgotten_at = null where id = $1', [sourceId]);
    const live = await tx.query('update chunks set is_live = true where artifact_id = $1 and embedding is not null returning id', [sourceId]);
    return { id: sourceId, title: row.title, passages: live.length };
  });
}
