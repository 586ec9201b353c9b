import { audienceParam, withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import { AppError } from '@brain/errors';
import { SOURCE_COLUMNS, toSourceSummary, type SourceRow, type SourceSummary } from './source-summary.ts';

export interface ListSourcesOptions {
  /** Whose list this is: only sources of these audiences are listed or counted. */
  audience: AudienceFilter;
  status?: SourceSummary['status'] | undefined;
  /** Also list forgotten sources (restorable ones). */
  includeForgotten?: boolean | undefined;
  limit?: number | undefined;
  /** From a previous page's `nextCursor`. */
  cursor?: string | undefined;
}

export interface SourcePage {
  sources: SourceSummary[];
  total: number;
  nextCursor: string | null;
}

/** Newest first, keyset-paginated so pages stay stable while sources are being added. */
export async function listSources(db: Database, workspaceId: string, options: ListSourcesOptions): Promise<SourcePage> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  return withWorkspace(db, workspaceId, async (tx) => {
    const rows = await tx.query<SourceRow>(
      `select ${SOURCE_COLUMNS} from artifacts a
       where ($1::text is null or a.status = $1)
         and ($2 or a.forgotten_at is null)
         and ($3::timestamptz is null or (a.created_at, a.id) < ($3::timestamptz, $4::uuid))
         and ($6::text[] is null or a.audience = any($6::text[]))
       order by a.created_at desc, a.id desc
       limit $5`,
      [options.status ?? null, options.includeForgotten ?? false, after?.createdAt ?? null, after?.id ?? null, limit + 1, audienceParam(options.audience)],
    );
    const [count] = await tx.query<{ n: number }>(
      `select count(*)::int as n from artifacts a where ($1::text is null or a.status = $1) and ($2 or a.forgotten_at is null)
         and ($3::text[] is null or a.audience = any($3::text[]))`,
      [options.status ?? null, options.includeForgotten ?? false, audienceParam(options.audience)],
    );
    const page = rows.slice(0, limit).map(toSourceSummary);
    const last = page.at(-1);
    return {
      sources: page,
      total: count?.n ?? 0,
      nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
    };
  });
}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string];
    if (typeof createdAt !== 'string' || typeof id !== 'string' || Number.isNaN(Date.parse(createdAt))) throw new Error('shape');
    return { createdAt, id };
  } catch {
    throw new AppError({ code: 'CURSOR_INVALID', message: 'That page cursor is not valid.', nextStep: 'Start again from the first page.', httpStatus: 400 });
  }
}
