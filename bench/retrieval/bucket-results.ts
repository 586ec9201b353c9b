import type { QueryKind, WorkspacePlan } from './dataset-plan.ts';
import { summarize, type Sample, type Summary } from './measure.ts';
import type { BenchQuery } from './queries.ts';
import { AUDIENCE_EXACT_NAME, AUDIENCE_NAME, EVERYONE_EXACT_NAME, EVERYONE_NAME, exactPath, production, REFERENCE_NAME, STAFF_EXACT_NAME, STAFF_NAME } from './variants.ts';

/** One kind of question (on-topic or off-topic) in one bucket, or over all buckets. */
export interface GroupResult {
  queries: number;
  /** Mean share of the query's 100 nearest passages (whole table) that are its workspace's. */
  ownShareOf100: number | null;
  /** How many of the queries match_artifacts answered through the HNSW index. */
  productionHnswQueries: number;
  variants: Record<string, Summary>;
  /**
   * match_artifacts against its own exact path: what the index costs, apart from the function's
   * deliberate re-ranking (further passages of one source discounted), which the distance-only
   * ground truth counts as misses.
   */
  productionVsExactFunction: Summary | null;
  /** The audience-filtered call against the same call on its exact path (--audience). */
  audienceVsExactFunction: Summary | null;
  /** The everyone-readable call (same allowed set, by flag) against its own exact path (--audience). */
  everyoneVsExactFunction: Summary | null;
  /** The staff ask (the everyone set and a small channel) against its own exact path (--audience). */
  staffVsExactFunction: Summary | null;
}

export interface BucketResult {
  label: string;
  workspaces: number;
  rowsMin: number | null;
  rowsMax: number | null;
  /** Share of all passages held by the bucket's largest workspace. */
  largestShare: number | null;
  /** The index each forced variant's statement used (EXPLAIN as the tenant). */
  forcedPlans: Record<string, string>;
  /** The path each filtered call took on one of the bucket's questions (auto_explain; --audience). */
  filteredPaths: Record<string, string>;
  onTopic: GroupResult;
  offTopic: GroupResult;
}

/** The reference has no tenant: its recall is against the exact search of the whole table. */
function summarizeVariant(variant: string, list: Sample[]): Summary {
  if (variant === AUDIENCE_NAME || variant === EVERYONE_NAME) return summarize(list, (q) => q.audienceTruth);
  // No distance truth was computed for the staff set: it is measured against its exact path only.
  if (variant === STAFF_NAME || variant === STAFF_EXACT_NAME) return summarize(list, () => null);
  return variant === REFERENCE_NAME ? summarize(list, (q) => q.globalTruth) : summarize(list);
}

const mean = (values: number[]): number => Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000;

export function groupResult(
  samples: Map<string, Sample[]>,
  paths: Map<number, string>,
  include: (q: BenchQuery) => boolean,
): GroupResult {
  const firstVariant = [...samples.values()][0] ?? [];
  const queries = firstVariant.map((s) => s.query).filter(include);
  return {
    queries: queries.length,
    ownShareOf100: queries.length ? mean(queries.map((q) => q.ownShareOf100)) : null,
    productionHnswQueries: queries.filter((q) => paths.get(q.index) === 'hnsw').length,
    variants: queries.length
      ? Object.fromEntries([...samples].map(([variant, list]) => [variant, summarizeVariant(variant, list.filter((s) => include(s.query)))]))
      : {},
    productionVsExactFunction: queries.length ? againstExactFunction(samples, include) : null,
    audienceVsExactFunction: queries.length ? againstExactFunction(samples, include, AUDIENCE_NAME, AUDIENCE_EXACT_NAME) : null,
    everyoneVsExactFunction: queries.length ? againstExactFunction(samples, include, EVERYONE_NAME, EVERYONE_EXACT_NAME) : null,
    staffVsExactFunction: queries.length ? againstExactFunction(samples, include, STAFF_NAME, STAFF_EXACT_NAME) : null,
  };
}

function againstExactFunction(
  samples: Map<string, Sample[]>,
  include: (q: BenchQuery) => boolean,
  variant = production({ hybrid: false }).name,
  exactVariant = exactPath().name,
): Summary | null {
  const exact = samples.get(exactVariant);
  const prod = samples.get(variant);
  if (!exact || !prod) return null;
  const truth = new Map(exact.map((s) => [s.query.index, s.ids]));
  return summarize(
    prod.filter((s) => include(s.query)),
    (q) => truth.get(q.index) ?? null,
  );
}

export function bucketResult(
  label: string,
  members: WorkspacePlan[],
  totalRows: number,
  samples: Map<string, Sample[]>,
  paths: Map<number, string>,
  forcedPlans: Record<string, string>,
  filteredPaths: Record<string, string> = {},
): BucketResult {
  const rows = members.map((w) => w.rows);
  const of = (kind: QueryKind) => (q: BenchQuery): boolean => q.bucket === label && q.kind === kind;
  return {
    label,
    workspaces: members.length,
    rowsMin: rows.length ? Math.min(...rows) : null,
    rowsMax: rows.length ? Math.max(...rows) : null,
    largestShare: rows.length ? Math.round((Math.max(...rows) / totalRows) * 10_000) / 10_000 : null,
    forcedPlans,
    filteredPaths,
    onTopic: groupResult(samples, paths, of('on-topic')),
    offTopic: groupResult(samples, paths, of('off-topic')),
  };
}
