import type { Queryable } from '@brain/db';
import type { RetrievalSettings } from './retrieval-settings.ts';

export interface PreviewQuestion {
  id: string;
  question: string;
  grounded: boolean;
  keptBefore: number;
  keptAfter: number;
  citedBefore: number;
  citedAfter: number;
}

export interface SettingsPreview {
  current: RetrievalSettings;
  proposed: RetrievalSettings;
  /** The recent questions looked at (at most `sample`). */
  questions: number;
  /** Proposed settings that are looser than the current ones in either dimension. */
  loosens: boolean;
  answeredNow: number;
  /** Answered now and keeping at least one cited passage under the proposed settings. */
  answeredStillBacked: number;
  /** Answered now, but every cited passage would be dropped: likely "not in the sources" instead. */
  answersLosingAllCitations: number;
  withoutPassagesNow: number;
  /** Questions left with no passage: these would answer "No grounded sources found". */
  withoutPassagesAfter: number;
  passagesNow: number;
  passagesAfter: number;
  /** Up to five of the answers that would lose every cited passage, newest first. */
  examples: PreviewQuestion[];
}

/**
 * What the proposed settings would have done to the last `sample` questions, estimated from the
 * similarities and ranks stored with each one (no question is re-run). A passage is kept when its
 * similarity reaches the proposed floor, or the keyword leg ranked it within the proposed count
 * (match_artifacts keeps those whatever their similarity), and its rank is within that count. This is exact
 * for what tightening drops; what loosening would add was never stored (only passages that passed
 * the settings of the day are), so for a looser proposal the figures are a floor, and say so.
 */
export async function previewSettings(
  tx: Queryable,
  workspaceId: string,
  current: RetrievalSettings,
  proposed: RetrievalSettings,
  sample = 200,
): Promise<SettingsPreview> {
  const rows = await tx.query<{
    id: string;
    question: string;
    grounded: boolean;
    kept_before: number;
    kept_after: number;
    cited_before: number;
    cited_after: number;
  }>(
    `with recent as (
       select q.id, q.question, q.grounded, q.retrieved, q.cited, q.created_at
       from queries q where q.workspace_id = $1
       order by q.created_at desc, q.id desc limit $4
     )
     select r.id::text, left(r.question, 200) as question, r.grounded,
            jsonb_array_length(r.retrieved) as kept_before, k.kept_after,
            jsonb_array_length(r.cited) as cited_before, k.cited_after
     from recent r cross join lateral (
       select count(*)::int as kept_after,
              count(*) filter (where r.cited @> jsonb_build_array(jsonb_build_object('chunk_id', e.v->'chunk_id')))::int as cited_after
       from jsonb_array_elements(r.retrieved) with ordinality as e(v, ord)
       -- As match_artifacts keeps them: the keyword leg's own top match_count pass the floor.
       where (coalesce((e.v->>'similarity')::float8, 1) >= $3 or (e.v->>'keyword_rank')::int <= $2)
         and coalesce((e.v->>'rank')::int, e.ord::int) <= $2
     ) k
     order by r.created_at desc, r.id desc`,
    [workspaceId, proposed.matchCount, proposed.minSimilarity, sample],
  );
  const questions: PreviewQuestion[] = rows.map((r) => ({
    id: r.id,
    question: r.question,
    grounded: r.grounded,
    keptBefore: r.kept_before,
    keptAfter: r.kept_after,
    citedBefore: r.cited_before,
    citedAfter: r.cited_after,
  }));
  const answered = questions.filter((q) => q.grounded);
  const losing = answered.filter((q) => q.citedBefore > 0 && q.citedAfter === 0);
  const sum = (xs: PreviewQuestion[], f: (q: PreviewQuestion) => number) => xs.reduce((n, q) => n + f(q), 0);
  return {
    current,
    proposed,
    questions: questions.length,
    loosens: proposed.minSimilarity < current.minSimilarity || proposed.matchCount > current.matchCount,
    answeredNow: answered.length,
    answeredStillBacked: answered.length - losing.length,
    answersLosingAllCitations: losing.length,
    withoutPassagesNow: questions.filter((q) => q.keptBefore === 0).length,
    withoutPassagesAfter: questions.filter((q) => q.keptAfter === 0).length,
    passagesNow: sum(questions, (q) => q.keptBefore),
    passagesAfter: sum(questions, (q) => q.keptAfter),
    examples: losing.slice(0, 5),
  };
}
