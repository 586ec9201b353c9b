import { audienceParam, type AudienceFilter, type Queryable } from '@brain/db';
import { genericFrom, type TermStats } from '../text/term-weights.ts';
import { termOf } from '../text/terms.ts';

/**
 * How many of the workspace's live passages contain each of the question's words (as a phrase of
 * PostgreSQL's lexemes, so `maintenance_work_mem` must appear as written, not its three words
 * anywhere). Counting stops at the count from which a word is generic: beyond it the number
 * changes nothing, and a common word in a large workspace would otherwise cost a long scan.
 * Unless every word reaches that count: in a workspace of one product's docs ("What is pino's
 * default log level?" over pino's pages) each word of a question can be generic, and which of
 * them is least common is then all there is to go by, so they are counted again up to half the
 * workspace. A word PostgreSQL treats as a stop word is reported generic. Only passages of the
 * given audiences count (all of them for the operator's view). Run inside withWorkspace.
 */
export async function countTermPassages(tx: Queryable, workspaceId: string, audience: AudienceFilter, tokens: readonly string[]): Promise<TermStats> {
  const audiences = audienceParam(audience);
  const [total] = await tx.query<{ n: number }>(
    'select count(*)::int as n from public.chunks c where c.workspace_id = $1 and c.is_live and ($2::text[] is null or c.audience = any($2::text[]))',
    [workspaceId, audiences],
  );
  const documents = Number(total?.n ?? 0);
  const cap = genericFrom(documents);
  const frequencies = new Map<string, number>();
  if (documents === 0 || tokens.length === 0) return { documents, frequencies, cap };
  const count = (words: readonly string[], limit: number) =>
    tx.query<{ token: string; df: number | null }>(
      `with q as (
         select t.token, phraseto_tsquery('english'::regconfig, t.token) as query
         from unnest($2::text[]) as t(token)
       )
       select q.token,
              case when numnode(q.query) = 0 then null
                   else (select count(*)::int from (
                           select 1 from public.chunks c
                           where c.workspace_id = $1 and c.is_live and c.fts @@ q.query
                             and ($4::text[] is null or c.audience = any($4::text[]))
                           limit $3) s)
              end as df
       from q`,
      [workspaceId, words, limit, audiences],
    );
  let rows = await count(tokens, cap);
  const counted = rows.filter((r) => r.df !== null);
  const ceiling = Math.ceil(documents / 2);
  const recount = counted.length > 0 && counted.every((r) => Number(r.df) >= cap) && ceiling > cap;
  if (recount) rows = await count(tokens, ceiling);
  for (const row of rows) {
    const term = termOf(row.token);
    const df = row.df === null ? (recount ? documents : cap) : Number(row.df);
    frequencies.set(term, Math.max(df, frequencies.get(term) ?? 0));
  }
  return { documents, frequencies, cap: recount ? ceiling : cap };
}
