import { audienceParam, isUuid, withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import { AppError } from '@brain/errors';
import { SOURCE_COLUMNS, toSourceSummary, type SourceRow, type SourceSummary } from './source-summary.ts';

/**
 * One source of this workspace, or SOURCE_NOT_FOUND; a forgotten one only when asked for. A
 * source outside the caller's audience is not found either: its existence is not revealed.
 */
export async function getSource(
  db: Database,
  workspaceId: string,
  sourceId: string,
  options: { includeForgotten?: boolean; audience: AudienceFilter },
): Promise<SourceSummary> {
  const row = isUuid(sourceId)
    ? (
        await withWorkspace(db, workspaceId, (tx) =>
          tx.query<SourceRow>(`select ${SOURCE_COLUMNS} from artifacts a where a.id = $1 and ($2::text[] is null or a.audience = any($2::text[]))`, [
            sourceId,
            audienceParam(options.audience),
          ]),
        )
      )[0]
    : undefined;
  if (!row) throw sourceNotFound(sourceId);
  const source = toSourceSummary(row);
  if (source.forgottenAt && !options.includeForgotten) {
    throw new AppError({
      code: 'SOURCE_FORGOTTEN',
      message: `Source ${sourceId} is forgotten.`,
      userMessage: `"${source.title ?? sourceId}" exists but is forgotten.`,
      nextStep: 'Restore it to use it again (restore_source, or /forget undo).',
      httpStatus: 409,
      details: { forgottenAt: source.forgottenAt.toISOString() },
    });
  }
  return source;
}

export function sourceNotFound(sourceId: string): AppError {
  return new AppError({
    code: 'SOURCE_NOT_FOUND',
    message: `No source ${sourceId} in this workspace.`,
    userMessage: 'There is no such source in this server\'s brain.',
    nextStep: 'List the sources to find its id.',
    httpStatus: 404,
  });
}
