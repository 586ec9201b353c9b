import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Admin URL of a PostgreSQL server with pgvector, where this user may create databases. */
  adminUrl: string;
  workspaces: number;
  chunks: number;
  zipfS: number;
  queriesPerBucket: number;
  seed: number;
  /** Also build a halfvec expression index and compare it with the vector index. */
  halfvec: boolean;
  /** Also time match_artifacts with a query text (vector + keyword legs fused). */
  hybrid: boolean;
  /** Also time match_artifacts with an audience filter (the keys a Discord reply may cite) against the exact filtered result. */
  audience: boolean;
  /** Build the HNSW index with this ef_construction instead of the migrations' value (to compare). */
  hnswEfConstruction: number | null;
  /** A second, smaller run of the same shape (workspaces and chunks × this factor); 0 skips it. */
  compareScale: number;
  maintenanceWorkMem: string;
  /** Keep the bench databases after the run (to reuse one with --reuse). */
  keep: boolean;
  /** Reuse bench databases left by --keep when their parameters match. */
  reuse: boolean;
  /** After timing, flip channel 1's everyone flag on the largest workspace this many times each way (0: not). */
  flagFlips: number;
  outDir: string;
  /** The command line as typed, for the report. */
  argv: string[];
}

export const DIMENSIONS = 1536;

const USAGE = `npm run bench:retrieval -- [options]

Needs BENCH_DATABASE_URL or TEST_DATABASE_URL: a PostgreSQL server with pgvector >= 0.8 where
this user may create databases (for a throwaway one: eval "$(bash .ci/start-postgres.sh)").

  --workspaces N          workspaces in the main run (default 1000)
  --chunks N              embedded passages in the main run (default 200000)
  --zipf-s S              Zipf exponent of workspace sizes, size(rank) ~ rank^-S (default 1)
  --queries-per-bucket N  queries per workspace-size bucket (default 100)
  --seed N                seed for every random choice (default 42)
  --dims 1536             fixed: the chunks table stores vector(1536)
  --compare-scale F       also run at F x workspaces and chunks, to compare latency (default 0.1; 0 skips)
  --halfvec               also compare a halfvec(1536) HNSW index with the vector one
  --hybrid                also time match_artifacts with a query text (both legs fused)
  --audience              also time match_artifacts filtered to two of the four audiences each workspace's
                          sources are spread over, with recall against the exact filtered result; and the
                          same set as "everyone-readable" (the passages' flag and its partial HNSW index);
                          and a staff ask (that set and a small staff channel), each with the path it took
  --flag-flips N          after timing, make the largest workspace's channel 1 private and public again
                          N times each way (the guild_facts refresh and its flag rewrite), then VACUUM
  --hnsw-ef-construction N  build the HNSW index with this ef_construction instead of the migrations'
  --maintenance-work-mem  for the index builds (default 2GB)
  --keep                  keep the bench databases afterwards
  --reuse                 reuse databases kept by an earlier --keep run with the same data parameters
  --out DIR               where results go (default bench/results)`;

export class UsageError extends Error {}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      workspaces: { type: 'string', default: '1000' },
      chunks: { type: 'string', default: '200000' },
      'zipf-s': { type: 'string', default: '1' },
      'queries-per-bucket': { type: 'string', default: '100' },
      seed: { type: 'string', default: '42' },
      dims: { type: 'string', default: String(DIMENSIONS) },
      'compare-scale': { type: 'string', default: '0.1' },
      halfvec: { type: 'boolean', default: false },
      hybrid: { type: 'boolean', default: false },
      audience: { type: 'boolean', default: false },
      'hnsw-ef-construction': { type: 'string' },
      'maintenance-work-mem': { type: 'string', default: '2GB' },
      keep: { type: 'boolean', default: false },
      reuse: { type: 'boolean', default: false },
      'flag-flips': { type: 'string', default: '0' },
      out: { type: 'string', default: 'bench/results' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) throw new UsageError(USAGE);

  const adminUrl = (env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL ?? '').trim();
  if (!adminUrl) {
    throw new UsageError(
      'Neither BENCH_DATABASE_URL nor TEST_DATABASE_URL is set. The retrieval benchmark needs a real PostgreSQL ' +
        'with pgvector >= 0.8 where it may create databases. Start a throwaway one with\n' +
        '  eval "$(bash .ci/start-postgres.sh)"\nand stop it afterwards with bash .ci/stop-postgres.sh.\n\n' +
        USAGE,
    );
  }
  if (Number(values.dims) !== DIMENSIONS) {
    throw new UsageError(`--dims is fixed at ${DIMENSIONS}: the chunks table stores vector(${DIMENSIONS}).`);
  }
  const options: BenchOptions = {
    adminUrl,
    workspaces: positiveInt(values.workspaces, '--workspaces'),
    chunks: positiveInt(values.chunks, '--chunks'),
    zipfS: positiveNumber(values['zipf-s'], '--zipf-s'),
    queriesPerBucket: positiveInt(values['queries-per-bucket'], '--queries-per-bucket'),
    seed: positiveInt(values.seed, '--seed'),
    halfvec: values.halfvec,
    hybrid: values.hybrid,
    audience: values.audience,
    hnswEfConstruction: values['hnsw-ef-construction'] === undefined ? null : positiveInt(values['hnsw-ef-construction'], '--hnsw-ef-construction'),
    compareScale: fraction(values['compare-scale'], '--compare-scale'),
    maintenanceWorkMem: memory(values['maintenance-work-mem']),
    keep: values.keep,
    reuse: values.reuse,
    flagFlips: values['flag-flips'] === '0' ? 0 : positiveInt(values['flag-flips'], '--flag-flips'),
    outDir: values.out,
    argv,
  };
  if (options.chunks < options.workspaces) {
    throw new UsageError(`--chunks (${options.chunks}) must be at least --workspaces (${options.workspaces}): every workspace holds a passage.`);
  }
  return options;
}

function positiveInt(raw: string, name: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer, got ${JSON.stringify(raw)}.`);
  return n;
}

function positiveNumber(raw: string, name: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${name} must be a positive number, got ${JSON.stringify(raw)}.`);
  return n;
}

function fraction(raw: string, name: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n >= 1) throw new UsageError(`${name} must be in [0, 1), got ${JSON.stringify(raw)}.`);
  return n;
}

function memory(raw: string): string {
  if (!/^\d+(kB|MB|GB)$/.test(raw)) throw new UsageError(`--maintenance-work-mem must look like 512MB or 2GB, got ${JSON.stringify(raw)}.`);
  return raw;
}
