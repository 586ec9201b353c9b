import type { Database } from '@brain/db';
import { EVERYONE_HNSW_INDEX, graphParts, HNSW_INDEX, seconds, wholeGraph } from './load.ts';
import { pgSeed } from './random.ts';

export const HALFVEC_INDEX = 'bench_chunks_embedding_halfvec_idx';

export interface IndexFacts {
  /** The definition built: the migrations' own, unless --hnsw-ef-construction replaced a parameter. */
  hnswDefinition: string;
  hnswBuildSeconds: number;
  hnswBytes: number;
  /** Share of sampled passages the index cannot find even with their own vector as the query. */
  hnswUnreachable: number;
  /** The everyone-readable partial index (migrations 20261202140000, 20261204170000), built after the restricted one. */
  everyoneBuildSeconds: number | null;
  everyoneBytes: number | null;
  /** Passages it holds (readable_by_everyone). */
  everyoneRows: number | null;
  halfvecBuildSeconds: number | null;
  halfvecBytes: number | null;
  halfvecUnreachable: number | null;
  tableBytes: number;
  embeddedRows: number;
  maintenanceWorkMem: string;
  parallelMaintenanceWorkers: number;
}

/** Passages sampled for the reachability check. */
const REACHABILITY_SAMPLE = 500;

/** The migrations' index definition with another ef_construction, for comparing build parameters. */
export function withEfConstruction(definition: string, efConstruction: number | null): string {
  if (efConstruction === null) return definition;
  if (/ef_construction\s*=\s*'?\d+'?/i.test(definition)) {
    return definition.replace(/ef_construction\s*=\s*'?\d+'?/i, `ef_construction='${efConstruction}'`);
  }
  return definition.replace(/\)\s+WHERE/i, `) WITH (ef_construction='${efConstruction}') WHERE`);
}

/** m and ef_construction of an HNSW index definition (pgvector's defaults where it names none). */
export function hnswParameters(definition: string): { m: number; efConstruction: number } {
  const m = /\bm\s*=\s*'?(\d+)/i.exec(definition)?.[1] ?? '16';
  const ef = /ef_construction\s*=\s*'?(\d+)/i.exec(definition)?.[1] ?? '64';
  return { m: Number(m), efConstruction: Number(ef) };
}

export async function buildIndexes(
  db: Database,
  options: { definition: string; everyoneDefinition: string; maintenanceWorkMem: string; halfvec: boolean; seed: number },
): Promise<IndexFacts> {
  const hnswBuildSeconds = await timedBuild(db, options.definition, options.maintenanceWorkMem);
  const everyoneBuildSeconds = await timedBuild(db, options.everyoneDefinition, options.maintenanceWorkMem);
  // The same graph parameters as the vector index, so only the element type differs.
  const { m, efConstruction } = hnswParameters(options.definition);
  const halfvecBuildSeconds = options.halfvec
    ? await timedBuild(
        db,
        `create index ${HALFVEC_INDEX} on public.chunks using hnsw ((embedding::halfvec(1536)) halfvec_cosine_ops)
         with (m = ${m}, ef_construction = ${efConstruction}) where embedding is not null`,
        options.maintenanceWorkMem,
      )
    : null;
  await db.exec('analyze public.chunks');

  const [sizes] = await db.query<{ hnsw: number; everyone: number; everyone_rows: number; halfvec: number | null; table_bytes: number; embedded: number; workers: number }>(
    `select pg_relation_size('public.${HNSW_INDEX}')::float8 as hnsw,
            pg_relation_size('public.${EVERYONE_HNSW_INDEX}')::float8 as everyone,
            (select count(*)::int from public.chunks where readable_by_everyone) as everyone_rows,
            pg_relation_size(to_regclass('public.${HALFVEC_INDEX}'))::float8 as halfvec,
            pg_table_size('public.chunks')::float8 as table_bytes,
            (select count(*)::int from public.chunks where embedding is not null) as embedded,
            current_setting('max_parallel_maintenance_workers')::int as workers`,
  );
  if (!sizes) throw new Error('could not read index sizes');
  return {
    hnswDefinition: options.definition,
    hnswBuildSeconds,
    hnswBytes: sizes.hnsw,
    hnswUnreachable: await unreachableInGraphs(db, options.seed),
    everyoneBuildSeconds,
    everyoneBytes: sizes.everyone,
    everyoneRows: sizes.everyone_rows,
    halfvecBuildSeconds,
    halfvecBytes: sizes.halfvec,
    halfvecUnreachable: options.halfvec ? await unreachableShare(db, 'embedding::halfvec(1536)', options.seed) : null,
    tableBytes: sizes.table_bytes,
    embeddedRows: sizes.embedded,
    maintenanceWorkMem: options.maintenanceWorkMem,
    parallelMaintenanceWorkers: sizes.workers,
  };
}

async function timedBuild(db: Database, ddl: string, maintenanceWorkMem: string): Promise<number> {
  const started = performance.now();
  await db.transaction(async (tx) => {
    // Enough memory for the whole graph: a build that spills to disk is several times slower.
    await tx.exec(`set local maintenance_work_mem = '${maintenanceWorkMem}'; ${ddl}`);
  });
  return seconds(started);
}

/**
 * Graph health: a passage whose own vector, used as the query, does not bring it back among the
 * 10 nearest through the index (ef_search 100, no filter) has no path in. No query setting finds
 * it; only the exact path does.
 */
async function unreachableShare(db: Database, expression: string, seed: number, part: (alias: string) => string = (alias) => wholeGraph(alias)[0] as string): Promise<number> {
  const [row] = await db.transaction(async (tx) => {
    await tx.exec('set local enable_seqscan = off; set local hnsw.ef_search = 100; set local max_parallel_workers_per_gather = 0;');
    await tx.query('select setseed($1)', [pgSeed(seed, 3)]);
    return tx.query<{ share: number }>(
      `select avg(case when found then 0 else 1 end)::float8 as share
       from (
         select exists (
           select 1 from (
             select c2.id from public.chunks c2 where ${part('c2')}
             order by ${expression.replace('embedding', 'c2.embedding')} <=> ${expression.replace('embedding', 's.embedding')}
             limit 10) x
           where x.id = s.id) as found
         from (select c.id, c.embedding from public.chunks c where ${part('c')} order by random() limit ${REACHABILITY_SAMPLE}) s
       ) t`,
    );
  });
  return Math.round((row?.share ?? Number.NaN) * 10_000) / 10_000;
}

/** The vector index's share: each graph's own (a passage is searched for in the graph that holds it), weighted by its passages. */
async function unreachableInGraphs(db: Database, seed: number): Promise<number> {
  let weighted = 0;
  let total = 0;
  for (const i of graphParts('c').keys()) {
    const part = (alias: string) => graphParts(alias)[i] as string;
    const [row] = await db.query<{ n: number }>(`select count(*)::int as n from public.chunks c where ${part('c')}`);
    const n = row?.n ?? 0;
    if (n === 0) continue;
    weighted += n * (await unreachableShare(db, 'embedding', seed, part));
    total += n;
  }
  return total ? Math.round((weighted / total) * 10_000) / 10_000 : Number.NaN;
}
