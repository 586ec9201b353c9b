import { audienceParam, type AudienceFilter, type Queryable } from '@brain/db';
import { literalPattern, parsedForm } from '../text/literals.ts';

/** How a written value is found: a form of it the full-text index holds, and the expression that tells it whole. */
export interface WrittenRule {
  parsed: (literal: string) => string;
  pattern: (literal: string) => string;
}

const VALUE_RULE: WrittenRule = { parsed: parsedForm, pattern: literalPattern };

/**
 * How many of the workspace's live passages write each value the question writes out (literalsOf),
 * as written: "~1.2.3" is rarer than the "1.2.3" of a README whose every example is that version,
 * and "New in version 3.11." makes "3.11" common in Python's docs. The full-text index finds the
 * passages holding the value's parsed form; the regular expression keeps those that write it whole
 * (holdsLiteral's rule). Counting stops at `limit`, the count from which a word is generic. Only
 * passages of the given audiences count. Run inside withWorkspace. `rule` says how the index
 * and the expression read a value; another (codeNameRule) counts the names a question writes as code.
 */
export async function countLiteralPassages(
  tx: Queryable,
  workspaceId: string,
  audience: AudienceFilter,
  literals: readonly string[],
  limit: number,
  rule: WrittenRule = VALUE_RULE,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (literals.length === 0) return counts;
  const rows = await tx.query<{ literal: string; df: number }>(
    `with q as (
       select t.literal, t.pattern, phraseto_tsquery('english'::regconfig, t.parsed) as query
       from unnest($2::text[], $3::text[], $4::text[]) as t(literal, parsed, pattern)
     )
     select q.literal,
            (select count(*)::int from (
               select 1 from public.chunks c
               where c.workspace_id = $1 and c.is_live
                 and (numnode(q.query) = 0 or c.fts @@ q.query)
                 and c.content ~* q.pattern
                 and ($6::text[] is null or c.audience = any($6::text[]))
               limit $5) s) as df
     from q`,
    [workspaceId, literals, literals.map(rule.parsed), literals.map(rule.pattern), limit, audienceParam(audience)],
  );
  for (const row of rows) counts.set(row.literal, Number(row.df));
  return counts;
}
