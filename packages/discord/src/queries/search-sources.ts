import { audienceParam, withWorkspace, type AudienceFilter, type Database } from '@brain/db';

export interface SourceChoice {
  id: string;
  title: string | null;
  url: string | null;
  fileName: string | null;
  status: string;
  forgotten: boolean;
}

/**
 * Sources whose title, address or file name contains `text`, newest first, for /forget's
 * autocomplete: this workspace's only (RLS), of the audiences given, live ones or forgotten ones.
 */
export async function searchSources(db: Database, workspaceId: string, text: string, options: { forgotten: boolean; limit: number; audience: AudienceFilter }): Promise<SourceChoice[]> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await withWorkspace(db, workspaceId, (tx) =>
    tx.query<{ id: string; title: string | null; url: string | null; file_name: string | null; status: string; forgotten: boolean }>(
      `select id, title, url, file_name, status, forgotten_at is not null as forgotten
       from artifacts
       where (forgotten_at is not null) = $2
         and ($1 = '%%' or title ilike $1 or url ilike $1 or file_name ilike $1 or id::text like $3)
         and ($5::text[] is null or audience = any($5::text[]))
       order by created_at desc, id desc
       limit $4`,
      [pattern, options.forgotten, `${text.toLowerCase()}%`, options.limit, audienceParam(options.audience)],
    ),
  );
  return rows.map((r) => ({ id: r.id, title: r.title, url: r.url, fileName: r.file_name, status: r.status, forgotten: r.forgotten }));
}
