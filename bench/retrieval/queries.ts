import type { Database } from '@brain/db';
import { SHAPE, type QueryKind, type QueryPlan } from './dataset-plan.ts';
import { pgSeed } from './random.ts';
import { AUDIENCE_KEYS, MIN_SIMILARITY } from './variants.ts';

export interface BenchQuery {
  index: number;
  workspaceId: string;
  workspaceRows: number;
  bucket: string;
  kind: QueryKind;
  /** The shared document the query is about. */
  document: number;
  /** pgvector's text form, for the SQL variants. */
  literal: string;
  embedding: number[];
  /** Exact top 5 of the workspace (ids) above the similarity floor, nearest first. */
  truth: string[];
  /** Exact top 5 of the workspace within AUDIENCE_KEYS above the floor: the audience-filtered run's truth. */
  audienceTruth: string[];
  /** Exact top 5 of the whole table above the floor, for the unfiltered reference; null where not computed. */
  globalTruth: string[] | null;
  /** How many of the 100 passages nearest to the query (whole table) belong to its workspace. */
  ownShareOf100: number;
}

/** Unfiltered exact search reads every row; it is computed for this many queries only. */
export const GLOBAL_TRUTH_SAMPLE = 30;

/**
 * Generates the query vectors (see SHAPE) and their ground truth by exact search: the `+ 0` keeps
 * every HNSW index out of it, so the rows come from the B-tree on workspace_id (or a sequential
 * scan) and a full sort by true distance. The truth is what match_artifacts should return with
 * its default similarity floor: the nearest five at or above it, possibly none.
 */
export async function prepareQueries(db: Database, queries: QueryPlan[], seed: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.exec('set local max_parallel_workers_per_gather = 0;');
    await tx.query('select setseed($1)', [pgSeed(seed, 2)]);
    await tx.exec(`create table bench.query (idx int primary key, ws int not null, bucket text not null, kind text not null, document int not null,
                     v vector(1536), truth uuid[], audience_truth uuid[], global_truth uuid[], own_share_100 real)`);
    await tx.query(
      `insert into bench.query (idx, ws, bucket, kind, document)
       select (q->>'index')::int, (q->>'workspace')::int, q->>'bucket', q->>'kind', (q->>'document')::int
       from jsonb_array_elements($1::text::jsonb) q`,
      [JSON.stringify(queries)],
    );
    await tx.exec(`
      update bench.query q set v = d.v + bench.noise(${SHAPE.norms.query}) from bench.document d where d.d = q.document;
      update bench.query q set truth = array(
          select c.id from public.chunks c
          where c.workspace_id = w.id and c.embedding is not null and c.is_live
            and 1 - (c.embedding <=> q.v) >= ${MIN_SIMILARITY}
          order by (c.embedding <=> q.v) + 0, c.id
          limit 5)
        from bench.workspace w where w.idx = q.ws;
      update bench.query q set audience_truth = array(
          select c.id from public.chunks c
          where c.workspace_id = w.id and c.embedding is not null and c.is_live
            and c.audience = any(array[${AUDIENCE_KEYS.map((k) => `'${k}'`).join(', ')}])
            and 1 - (c.embedding <=> q.v) >= ${MIN_SIMILARITY}
          order by (c.embedding <=> q.v) + 0, c.id
          limit 5)
        from bench.workspace w where w.idx = q.ws;
    `);
    await tx.exec(`
      update bench.query q set global_truth = array(
          select c.id from public.chunks c where c.embedding is not null and 1 - (c.embedding <=> q.v) >= ${MIN_SIMILARITY}
          order by (c.embedding <=> q.v) + 0, c.id limit 5)
        where q.idx % greatest(1, (select count(*) from bench.query) / ${GLOBAL_TRUTH_SAMPLE}) = 0;
      set local hnsw.ef_search = 200;
      update bench.query q set own_share_100 = (
          select count(*) filter (where x.workspace_id = w.id)::real / 100
          from (select c.workspace_id from public.chunks c where c.embedding is not null
                order by c.embedding <=> q.v limit 100) x)
        from bench.workspace w where w.idx = q.ws;
    `);
  });
}

export async function readQueries(db: Database): Promise<BenchQuery[]> {
  const rows = await db.query<{
    idx: number;
    workspace_id: string;
    rows: number;
    bucket: string;
    kind: QueryKind;
    document: number;
    v: string;
    truth: string[];
    audience_truth: string[];
    global_truth: string[] | null;
    own_share_100: number;
  }>(
    `select q.idx, w.id::text as workspace_id, w.rows, q.bucket, q.kind, q.document, q.v::text as v, q.truth::text[] as truth, q.audience_truth::text[] as audience_truth,
            q.global_truth::text[] as global_truth, q.own_share_100
     from bench.query q join bench.workspace w on w.idx = q.ws order by q.idx`,
  );
  return rows.map((r) => ({
    index: r.idx,
    workspaceId: r.workspace_id,
    workspaceRows: r.rows,
    bucket: r.bucket,
    kind: r.kind,
    document: r.document,
    literal: r.v,
    embedding: r.v.slice(1, -1).split(',').map(Number),
    truth: r.truth,
    audienceTruth: r.audience_truth,
    globalTruth: r.global_truth,
    ownShareOf100: Number(r.own_share_100),
  }));
}
