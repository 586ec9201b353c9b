import { audienceKeys, withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import { EVERYONE_FLAGS_BATCH, rewriteEveryoneFlags } from '@brain/ingest';
import { benchDatabaseName, openBenchDatabase, type DataParameters } from './bench-database.ts';
import { BUCKETS, planDataset } from './dataset-plan.ts';
import { buildIndexes, withEfConstruction, type IndexFacts } from './indexes.ts';
import { EVERYONE_CHANNEL, loadDataset, seconds, type LoadFacts } from './load.ts';
import { bucketResult, groupResult, type BucketResult, type GroupResult } from './bucket-results.ts';
import { measure, summarize, type Summary } from './measure.ts';
import { filteredPath, productionPath } from './plans.ts';
import { prepareQueries, readQueries } from './queries.ts';
import {
  explainForced,
  exactPath,
  explainReference,
  forcedIndex,
  forcedIndexName,
  audienceFiltered,
  audienceFilteredExact,
  everyoneFiltered,
  everyoneFilteredExact,
  staffFiltered,
  staffFilteredExact,
  AUDIENCE_KEYS,
  AUDIENCE_NAME,
  EVERYONE_NAME,
  STAFF_KEYS,
  STAFF_NAME,
  production,
  runnersUpVariants,
  reference,
  REFERENCE_NAME,
  type ForcedIndexOptions,
  type Variant,
} from './variants.ts';

/** Bumped when the generator changes, so --reuse never mixes data of two shapes. */
export const SHAPE_VERSION = '3';

export type BuildFacts = LoadFacts & IndexFacts;

export interface ScaleResult {
  params: DataParameters;
  database: string;
  reusedDatabase: boolean;
  build: BuildFacts;
  referencePlan: string;
  /** The reference's recall against an exact unfiltered search, on a sample of queries. */
  referenceRecall: Summary;
  buckets: BucketResult[];
  /** --flag-flips: each guild_facts refresh that makes channel 1 private, then public, on the largest workspace, and the rewrite job after it. */
  flagFlips: FlagFlips | null;
  onTopic: GroupResult;
  offTopic: GroupResult;
  /** Cache hits during the timed pass: the share of buffer reads PostgreSQL found in shared_buffers. */
  sharedBufferHitRatio: number | null;
}

export interface ScaleOptions {
  adminUrl: string;
  maintenanceWorkMem: string;
  hybrid: boolean;
  audience: boolean;
  keep: boolean;
  reuse: boolean;
  /** After timing, flip channel 1's everyone flag on the largest workspace this many times each way. */
  flagFlips: number;
  log: (line: string) => void;
}

export interface FlagFlips {
  workspaceRows: number;
  rowsPerFlip: number;
  /** ms of the guild_facts write that makes channel 1 private: what an ask whose refresh finds the change waits for. */
  private: number[];
  /** The same, channel 1 made public again. */
  public: number[];
  /** The everyone_flags job that follows each write (batches of EVERYONE_FLAGS_BATCH rows, one transaction each). */
  privateJob: FlagJob[];
  publicJob: FlagJob[];
  /** The same rewrite as one transaction, as the facts write itself ran it before 20261202160000. */
  oneTransaction: { private: number; public: number };
  batchSize: number;
  /** VACUUM of chunks afterwards (both HNSW indexes repaired): the deferred part of the cost. */
  vacuumSeconds: number;
}

export interface FlagJob {
  ms: number;
  batches: number;
  rewritten: number;
  /** The longest single batch transaction: how long it holds a connection. */
  longestBatchMs: number;
}

/**
 * A refresh that makes a channel private, as the product runs it: one guild_facts update as the
 * tenant (which stores the facts and queues the rewrite, and rewrites nothing), then the
 * everyone_flags job that rewrites the flags of that channel's passages in batches (each row
 * re-inserted into both HNSW indexes). Then public again, and so on; then the same rewrite once
 * each way as one transaction, what the update did before; then VACUUM, which the flips left work for.
 */
async function measureFlagFlips(db: Database, times: number): Promise<FlagFlips> {
  const [ws] = await db.query<{ id: string; rows: number; flip: number }>(
    `select w.id::text, w.rows, (select count(*)::int from public.chunks c where c.workspace_id = w.id and c.audience = '${EVERYONE_CHANNEL}') as flip
       from bench.workspace w order by w.rows desc limit 1`,
  );
  if (!ws) throw new Error('no bench workspace');
  const set = async (keys: string[]): Promise<number> => {
    const started = performance.now();
    await withWorkspace(db, ws.id, (tx) => tx.query('update public.guild_facts set everyone_audiences = $2::text[], fetched_at = now() where workspace_id = $1', [ws.id, keys]));
    return Math.round((performance.now() - started) * 10) / 10;
  };
  const job = async (batchSize = EVERYONE_FLAGS_BATCH): Promise<FlagJob> => {
    let longestBatchMs = 0;
    let batchStarted = performance.now();
    const started = performance.now();
    const outcome = await rewriteEveryoneFlags(db, ws.id, {
      batchSize,
      onBatch: () => {
        longestBatchMs = Math.max(longestBatchMs, performance.now() - batchStarted);
        batchStarted = performance.now();
      },
    });
    if (!outcome.settled) throw new Error('the everyone_flags rewrite did not settle');
    return { ms: Math.round(performance.now() - started), batches: outcome.batches, rewritten: outcome.rewritten, longestBatchMs: Math.round(longestBatchMs) };
  };
  const result: FlagFlips = {
    workspaceRows: ws.rows,
    rowsPerFlip: ws.flip,
    private: [],
    public: [],
    privateJob: [],
    publicJob: [],
    oneTransaction: { private: 0, public: 0 },
    batchSize: EVERYONE_FLAGS_BATCH,
    vacuumSeconds: 0,
  };
  for (let i = 0; i < times; i++) {
    result.private.push(await set([]));
    result.privateJob.push(await job());
    result.public.push(await set([EVERYONE_CHANNEL]));
    result.publicJob.push(await job());
  }
  await set([]);
  result.oneTransaction.private = (await job(1_000_000)).longestBatchMs;
  await set([EVERYONE_CHANNEL]);
  result.oneTransaction.public = (await job(1_000_000)).longestBatchMs;
  const started = performance.now();
  await db.exec('vacuum analyze public.chunks');
  result.vacuumSeconds = seconds(started);
  return result;
}

/**
 * Marks every bench workspace's flags current, through the product's rewrite (it finds them
 * right, as the load flagged them, and says so): until then 'everyone' is searched by keys.
 */
async function settleEveryoneFlags(db: Database): Promise<void> {
  const workspaces = await db.query<{ id: string }>('select id::text from bench.workspace');
  for (const w of workspaces) await rewriteEveryoneFlags(db, w.id);
}

/** The filtered calls whose path (which index, or the exact search) the report names per bucket. */
const FILTERED_CALLS: [string, AudienceFilter][] = [
  [AUDIENCE_NAME, audienceKeys(AUDIENCE_KEYS)],
  [EVERYONE_NAME, { kind: 'keys', keys: AUDIENCE_KEYS, everyone: true }],
  [STAFF_NAME, audienceKeys(STAFF_KEYS)],
];

export async function runScale(params: DataParameters, options: ScaleOptions): Promise<ScaleResult> {
  const plan = planDataset(params);
  const name = benchDatabaseName(params, SHAPE_VERSION);
  const notices: string[] = [];
  const bench = await openBenchDatabase(options.adminUrl, name, { reuse: options.reuse, onNotice: (m) => notices.push(m) });
  try {
    let build: BuildFacts;
    if (bench.reused) {
      options.log(`${name}: reusing the data of an earlier --keep run`);
      build = await readBuildFacts(bench.db);
    } else {
      options.log(`${name}: loading ${params.chunks} passages in ${params.workspaces} workspaces, then building the HNSW index…`);
      const load = await loadDataset(bench.db, plan, params.seed);
      options.log(`  loaded in ${load.loadSeconds} s; building the index${params.halfvec ? 'es' : ''}…`);
      const definition = withEfConstruction(load.hnswDefinition, params.hnswEfConstruction);
      const indexes = await buildIndexes(bench.db, {
        definition,
        everyoneDefinition: load.everyoneDefinition,
        maintenanceWorkMem: options.maintenanceWorkMem,
        halfvec: params.halfvec,
        seed: params.seed,
      });
      build = { ...load, ...indexes };
      options.log(`  HNSW built in ${build.hnswBuildSeconds} s; exact ground truth…`);
      await prepareQueries(bench.db, plan.queries, params.seed);
      await bench.db.query("insert into bench.meta (key, value) values ('build', $1::text::jsonb), ('loaded', 'true')", [JSON.stringify(build)]);
    }
    // A database kept before the everyone-readable flag: give its workspaces the same guild facts as a fresh load.
    await bench.db.exec(`
      insert into public.guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at, everyone_audiences)
        select id, 'bench', 'bench', '[]', '[]', now(), array['${EVERYONE_CHANNEL}'] from bench.workspace
      on conflict (workspace_id) do nothing`);
    await settleEveryoneFlags(bench.db);
    const queries = await readQueries(bench.db);

    options.log('  plans…');
    const paths = new Map<number, string>();
    for (const query of queries) paths.set(query.index, await productionPath(bench.db, notices, query));
    const first = queries[0];
    if (!first) throw new Error('no queries were planned');
    const referencePlan = await explainReference(bench.db, first);

    const forcedOptions: ForcedIndexOptions[] = [
      { iterativeScan: 'off' },
      { iterativeScan: 'relaxed_order' },
      ...(params.halfvec ? [{ iterativeScan: 'relaxed_order', index: 'halfvec' } as const] : []),
    ];
    const forced = forcedOptions.map(forcedIndex);
    const variants: Variant[] = [
      production({ hybrid: false }),
      reference(),
      ...(options.hybrid ? [production({ hybrid: true }), ...runnersUpVariants()] : []),
      ...(options.audience
        ? [audienceFiltered(), audienceFilteredExact(), everyoneFiltered(), everyoneFilteredExact(), staffFiltered(), staffFilteredExact()]
        : []),
      exactPath(),
      ...forced,
    ];
    options.log(`  timing ${variants.length} variants on ${queries.length} queries (a warm-up pass, then a timed pass)…`);
    const before = await bufferCounters(bench.db);
    const samples = await measure(bench.db, queries, variants, params.seed);
    const after = await bufferCounters(bench.db);
    const reads = after.hit - before.hit + (after.read - before.read);
    const hitRatio = reads > 0 ? Math.round(((after.hit - before.hit) / reads) * 1000) / 1000 : null;

    const buckets: BucketResult[] = [];
    for (const bucket of BUCKETS) {
      const sample = queries.find((q) => q.bucket === bucket.label);
      const forcedPlans: Record<string, string> = {};
      if (sample) for (const o of forcedOptions) forcedPlans[forcedIndexName(o)] = await explainForced(bench.db, sample, o);
      const filteredPaths: Record<string, string> = {};
      if (sample && options.audience) for (const [variant, audience] of FILTERED_CALLS) filteredPaths[variant] = await filteredPath(bench.db, notices, sample, audience);
      const members = plan.workspaces.filter((w) => w.bucket === bucket.label);
      buckets.push(bucketResult(bucket.label, members, params.chunks, samples, paths, forcedPlans, filteredPaths));
    }
    return {
      params,
      database: name,
      reusedDatabase: bench.reused,
      build,
      referencePlan,
      referenceRecall: summarize(samples.get(REFERENCE_NAME) ?? [], (q) => q.globalTruth),
      buckets,
      onTopic: groupResult(samples, paths, (q) => q.kind === 'on-topic'),
      offTopic: groupResult(samples, paths, (q) => q.kind === 'off-topic'),
      sharedBufferHitRatio: hitRatio,
      flagFlips: options.flagFlips > 0 ? (options.log(`  flag flips (${options.flagFlips} each way) on the largest workspace…`), await measureFlagFlips(bench.db, options.flagFlips)) : null,
    };
  } finally {
    if (options.keep) await bench.close();
    else await bench.drop();
  }
}

async function readBuildFacts(db: Database): Promise<BuildFacts> {
  const [row] = await db.query<{ value: BuildFacts }>("select value from bench.meta where key = 'build'");
  if (!row) throw new Error('the reused bench database has no build facts');
  return row.value;
}


/** Block reads of this database so far, found in shared_buffers (hit) or not (read). */
async function bufferCounters(db: Database): Promise<{ hit: number; read: number }> {
  // Statistics reach the shared counters in batches; flush this session's first.
  await db.query('select pg_stat_force_next_flush()');
  await db.query('select pg_sleep(0.1)');
  const [row] = await db.query<{ hit: number; read: number }>(
    'select blks_hit::float8 as hit, blks_read::float8 as read from pg_stat_database where datname = current_database()',
  );
  return row ?? { hit: 0, read: 0 };
}
