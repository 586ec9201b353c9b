import { audienceKeys, EVERYTHING, matchArtifacts, withService, withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import { HALFVEC_INDEX } from './indexes.ts';
import { EVERYONE_HNSW_INDEX, graphParts, HNSW_INDEX, STAFF_CHANNEL, wholeGraph } from './load.ts';
import { SHAPE } from './dataset-plan.ts';
import type { BenchQuery } from './queries.ts';

/** One way of answering a query: returns the ids it found, nearest first, and how long the statement took. */
export interface Variant {
  name: string;
  run(db: Database, query: BenchQuery): Promise<{ ids: string[]; ms: number; transactionMs: number }>;
}

/** The audience-filtered run's allowed keys: two of the four audiences the load spreads sources over. */
export const AUDIENCE_KEYS = ['workspace', 'channel:1'] as const;
export const AUDIENCE_NAME = 'match_artifacts (audience-filtered)';

/** match_artifacts as a Discord reply calls it: only the sources of the audiences it may cite. */
export function audienceFiltered(): Variant {
  return production({ hybrid: false, audience: audienceKeys(AUDIENCE_KEYS), name: AUDIENCE_NAME });
}

export const AUDIENCE_EXACT_NAME = 'match_artifacts (audience-filtered), exact path forced';

/** The same filtered call on its exact path for every workspace size: what the filtered index path is measured against. */
export function audienceFilteredExact(): Variant {
  return production({ hybrid: false, audience: audienceKeys(AUDIENCE_KEYS), settings: 'set local brain.exact_search_max_rows = 1000000000', name: AUDIENCE_EXACT_NAME });
}

/**
 * A staff channel's ask: the everyone set and one small channel more. match_artifacts splits it
 * into the flagged passages (partial index) and the staff channel's few (exact), when the flags are current.
 */
export const STAFF_KEYS = [...AUDIENCE_KEYS, STAFF_CHANNEL] as const;
export const STAFF_NAME = 'match_artifacts (staff ask: everyone set + one small channel)';
export const STAFF_EXACT_NAME = 'match_artifacts (staff ask), exact path forced';

export function staffFiltered(): Variant {
  return production({ hybrid: false, audience: audienceKeys(STAFF_KEYS), name: STAFF_NAME });
}

export function staffFilteredExact(): Variant {
  return production({ hybrid: false, audience: audienceKeys(STAFF_KEYS), settings: 'set local brain.exact_search_max_rows = 1000000000', name: STAFF_EXACT_NAME });
}

export const EVERYONE_NAME = 'match_artifacts (everyone-readable, by flag)';

/**
 * The same allowed set as the audience-filtered run, named as "everything every member may read":
 * the load stores 'channel:1' as every workspace's everyone-readable channel (guild_facts), so
 * the flagged passages are exactly those of AUDIENCE_KEYS, searched through their partial index.
 * What a public channel's /ask and a 'public' MCP token call.
 */
export function everyoneFiltered(): Variant {
  return production({ hybrid: false, audience: EVERYONE_AUDIENCE, name: EVERYONE_NAME });
}

export const EVERYONE_EXACT_NAME = 'match_artifacts (everyone-readable, by flag), exact path forced';

export function everyoneFilteredExact(): Variant {
  return production({ hybrid: false, audience: EVERYONE_AUDIENCE, settings: 'set local brain.exact_search_max_rows = 1000000000', name: EVERYONE_EXACT_NAME });
}

const EVERYONE_AUDIENCE: AudienceFilter = { kind: 'keys', keys: AUDIENCE_KEYS, everyone: true };

/** match_artifacts' default similarity floor: what /ask uses, and what the ground truth applies. */
export const MIN_SIMILARITY = 0.15;

/**
 * What match_artifacts' HNSW path runs, as plain SQL: candidates by raw `<=>`, re-sorted exactly.
 * The vector index is two graphs that split the passages (20261204170000), each searched on its
 * own; the halfvec comparison index is one graph over all of them.
 */
const approximateSql = (orderBy: string, parts: readonly string[]): string => `
  select array_agg(x.id::text order by x.distance, x.id) filter (where 1 - x.distance >= ${MIN_SIMILARITY}) as ids
  from (
    ${parts
      .map(
        (part) => `(select c.id, c.embedding <=> $2::vector as distance
    from public.chunks c
    where c.workspace_id = $1::uuid and ${part} and c.is_live
    order by ${orderBy}
    limit 40)`,
      )
      .join('\n    union all\n    ')}
  ) x`;
const approximateFor = (o: ForcedIndexOptions): string =>
  o.index === 'halfvec' ? approximateSql(HALFVEC_ORDER, wholeGraph('c')) : approximateSql(VECTOR_ORDER, graphParts('c'));

const VECTOR_ORDER = 'c.embedding <=> $2::vector';
const HALFVEC_ORDER = 'c.embedding::halfvec(1536) <=> $2::vector::halfvec(1536)';

export interface ForcedIndexOptions {
  iterativeScan: 'off' | 'relaxed_order';
  index?: 'vector' | 'halfvec';
  /** match_artifacts uses 100. */
  efSearch?: number;
  /** pgvector's default is 20,000. */
  maxScanTuples?: number;
}

/** The settings match_artifacts uses for its index path, except the ones being compared. */
const forcedIndexSettings = (o: ForcedIndexOptions): string => `
  set local enable_sort = off;
  set local hnsw.ef_search = ${o.efSearch ?? 100};
  set local hnsw.iterative_scan = ${o.iterativeScan};
  ${o.maxScanTuples ? `set local hnsw.max_scan_tuples = ${o.maxScanTuples};` : ''}`;

export function forcedIndexName(o: ForcedIndexOptions): string {
  const extra = [o.efSearch ? `ef_search ${o.efSearch}` : '', o.maxScanTuples ? `max_scan_tuples ${o.maxScanTuples}` : ''].filter(Boolean);
  return `${o.index ?? 'vector'} HNSW forced, iterative ${o.iterativeScan}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

/**
 * match_artifacts as the production code calls it: withWorkspace (as the tenant), vector only or
 * hybrid. `settings` are SET LOCAL statements a tenant may run, for sweeps of the plan's knobs.
 */
export function production(options: { hybrid: boolean; settings?: string; name?: string; audience?: AudienceFilter; runnersUp?: number; secondCall?: number }): Variant {
  return {
    name: options.name ?? (options.hybrid ? 'match_artifacts (hybrid)' : 'match_artifacts'),
    async run(db, query) {
      let ms = 0;
      const outer = await timed(() =>
        withWorkspace(db, query.workspaceId, async (tx) => {
          if (options.settings) await tx.exec(options.settings);
          const call = (matchCount: number, runnersUp: number) =>
            matchArtifacts(tx, {
              audience: options.audience ?? EVERYTHING,
              workspaceId: query.workspaceId,
              embedding: query.embedding,
              // The document's own token, and its topic's, which every passage on the topic carries.
              queryText: options.hybrid ? `d${query.document} t${Math.floor(query.document / SHAPE.documentsPerTopic)}` : undefined,
              matchCount,
              runnersUp,
              minSimilarity: MIN_SIMILARITY,
            });
          const inner = await timed(async () => {
            const hits = await call(5, options.runnersUp ?? 0);
            // How /ask read its runners-up before runners_up: a second call for more rows.
            if (options.secondCall) await call(5 + options.secondCall, 0);
            return hits.slice(0, 5);
          });
          ms = inner.ms;
          return inner.value.map((h) => h.chunkId);
        }),
      );
      return { ids: outer.value, ms, transactionMs: outer.ms };
    },
  };
}

export const RUNNERS_UP_NAME = 'match_artifacts (hybrid, 10 runners_up)';
export const SECOND_CALL_NAME = 'match_artifacts (hybrid), then a second call for 15';

/** /ask's search: the k and ten rows past it from one call (runners_up), against the two calls it replaced. */
export function runnersUpVariants(): Variant[] {
  return [production({ hybrid: true, runnersUp: 10, name: RUNNERS_UP_NAME }), production({ hybrid: true, secondCall: 10, name: SECOND_CALL_NAME })];
}

/** match_artifacts with its threshold raised past every workspace: the exact path for all sizes. */
export function exactPath(): Variant {
  return production({ hybrid: false, settings: 'set local brain.exact_search_max_rows = 1000000000', name: 'match_artifacts, exact path forced' });
}

/** The approximate path forced for every workspace size, with iterative scan off or relaxed. */
export function forcedIndex(o: ForcedIndexOptions): Variant {
  const sql = approximateFor(o);
  return {
    name: forcedIndexName(o),
    async run(db, query) {
      let ms = 0;
      const outer = await timed(() =>
        withWorkspace(db, query.workspaceId, async (tx) => {
          await tx.exec(forcedIndexSettings(o));
          const inner = await timed(() => tx.query<{ ids: string[] | null }>(sql, [query.workspaceId, query.literal]));
          ms = inner.ms;
          return (inner.value[0]?.ids ?? []).slice(0, 5);
        }),
      );
      return { ids: outer.value, ms, transactionMs: outer.ms };
    },
  };
}

/** Both graphs, each by its own index, merged: the table's vectors are split between two (20261204170000). */
export const REFERENCE_SQL = `select x.id::text, x.distance from (${graphParts('c').map(
  (part) => `(select c.id, c.embedding <=> $1::vector as distance from public.chunks c where ${part} order by c.embedding <=> $1::vector limit 5)`,
).join(' union all ')}) x order by x.distance limit 5`;
const REFERENCE_SETTINGS = 'set local enable_seqscan = off';

/**
 * The reference: the raw HNSW query on the same table (each of its two graphs, merged), no tenant
 * filter, no fusion, pgvector's defaults (ef_search 40). Sequential scans are disabled for it: on PostgreSQL 15 with pgvector
 * 0.8.0 the planner prices the distance of TOASTed vectors so low that it reads all 20,000 rows of
 * the small run rather than the index, and the reference would not be the HNSW query at all.
 */
export const REFERENCE_NAME = 'raw HNSW, no tenant filter';

export function reference(): Variant {
  return {
    name: REFERENCE_NAME,
    async run(db, query) {
      let ms = 0;
      const outer = await timed(() =>
        withService(db, async (tx) => {
          await tx.exec(REFERENCE_SETTINGS);
          const inner = await timed(() => tx.query<{ id: string; distance: number }>(REFERENCE_SQL, [query.literal]));
          ms = inner.ms;
          return inner.value.filter((r) => 1 - r.distance >= MIN_SIMILARITY).map((r) => r.id);
        }),
      );
      return { ids: outer.value, ms, transactionMs: outer.ms };
    },
  };
}

/** Which index a forced variant's statement really uses, from EXPLAIN as the tenant. */
export async function explainForced(db: Database, query: BenchQuery, o: ForcedIndexOptions): Promise<string> {
  const sql = approximateFor(o);
  const plan = await withWorkspace(db, query.workspaceId, async (tx) => {
    await tx.exec(forcedIndexSettings(o));
    return tx.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, [query.workspaceId, query.literal]);
  });
  return indexUsed(plan.map((r) => r['QUERY PLAN']).join('\n'));
}

export async function explainReference(db: Database, query: BenchQuery): Promise<string> {
  const plan = await withService(db, async (tx) => {
    await tx.exec(REFERENCE_SETTINGS);
    return tx.query<{ 'QUERY PLAN': string }>(`explain ${REFERENCE_SQL}`, [query.literal]);
  });
  return indexUsed(plan.map((r) => r['QUERY PLAN']).join('\n'));
}

/** 'hnsw', 'hnsw (halfvec)' or 'exact' (B-tree or sequential scan, then a sort by true distance). */
export function indexUsed(plan: string): string {
  if (plan.includes(HALFVEC_INDEX)) return 'hnsw (halfvec)';
  if (plan.includes(HNSW_INDEX) || plan.includes(EVERYONE_HNSW_INDEX)) return 'hnsw';
  return 'exact';
}
