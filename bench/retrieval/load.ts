import type { Database } from '@brain/db';
import { SHAPE, type DatasetPlan } from './dataset-plan.ts';
import { pgSeed } from './random.ts';

/** The partial index over the passages not every member may read (migration 20261204170000). */
export const HNSW_INDEX = 'chunks_embedding_restricted_hnsw_idx';
/** The partial index over the passages every member may read (migrations 20261202140000, 20261204170000). */
export const EVERYONE_HNSW_INDEX = 'chunks_embedding_everyone_hnsw_idx';
/** Each passage is in one of the two: the predicates that choose them (their indexes' own), over the table alias given. */
export const graphParts = (alias: string): string[] => [
  `${alias}.embedding is not null and ${alias}.readable_by_everyone`,
  `${alias}.embedding is not null and not ${alias}.readable_by_everyone`,
];
/** The halfvec comparison index is one graph over every embedded passage. */
export const wholeGraph = (alias: string): string[] => [`${alias}.embedding is not null`];
/** The channel the load makes readable by everyone in every workspace (with 'workspace': AUDIENCE_KEYS). */
export const EVERYONE_CHANNEL = 'channel:1';
/** A small staff-only channel (one source in forty): what a staff channel's ask adds to the everyone set. */
export const STAFF_CHANNEL = 'channel:4';

/** What loading took; the index is built afterwards (indexes.ts). */
export interface LoadFacts {
  loadSeconds: number;
  /** The migrations' definition of the restricted passages' HNSW index, dropped for the load. */
  hnswDefinition: string;
  /** The same for the everyone-readable partial index. */
  everyoneDefinition: string;
}

export const seconds = (start: number): number => Math.round((performance.now() - start) / 10) / 100;

/**
 * Loads the plan into a freshly migrated database, generating every vector inside PostgreSQL
 * (1,536 random() calls a vector is far cheaper than shipping 6 KiB of text a row). The HNSW
 * index is dropped for the load and rebuilt from its own definition: one build is much faster
 * than 200,000 inserts into the graph. Passages go in shuffled, so a workspace's rows are spread
 * over the heap as they would be after months of saving, not stored side by side.
 */
export async function loadDataset(db: Database, plan: DatasetPlan, seed: number): Promise<LoadFacts> {
  const started = performance.now();
  const [index] = await db.query<{ def: string }>(`select pg_get_indexdef('public.${HNSW_INDEX}'::regclass) as def`);
  if (!index) throw new Error(`index ${HNSW_INDEX} not found: did the migrations change?`);
  const [everyone] = await db.query<{ def: string }>(`select pg_get_indexdef('public.${EVERYONE_HNSW_INDEX}'::regclass) as def`);
  if (!everyone) throw new Error(`index ${EVERYONE_HNSW_INDEX} not found: did the migrations change?`);

  await db.transaction(async (tx) => {
    // random() in parallel workers would not follow setseed.
    await tx.exec(`set local max_parallel_workers_per_gather = 0; drop index public.${HNSW_INDEX}; drop index public.${EVERYONE_HNSW_INDEX};`);
    await tx.query('select setseed($1)', [pgSeed(seed, 1)]);
    await tx.exec(`
      create schema bench;
      create table bench.meta (key text primary key, value jsonb not null);
      -- A random vector of (about) the given Euclidean norm: uniform noise in every dimension.
      create function bench.noise(norm double precision) returns vector(1536) language sql volatile as $$
        select array(select (random() - 0.5) * norm * sqrt(12.0 / 1536) from generate_series(1, 1536))::vector(1536)
      $$;
      create table bench.topic as
        select t, bench.noise(${SHAPE.norms.topic}) as v from generate_series(0, ${SHAPE.topics - 1}) t;
      alter table bench.topic add primary key (t);
      create table bench.workspace (idx int primary key, id uuid not null default gen_random_uuid(), rows int not null, bucket text not null);
      create table bench.artifact (idx int primary key, ws int not null, document int not null, passages int not null,
                                   id uuid not null default gen_random_uuid(), v vector(1536));
    `);
    await tx.query(
      `insert into bench.workspace (idx, rows, bucket)
       select (w->>'index')::int, (w->>'rows')::int, w->>'bucket' from jsonb_array_elements($1::text::jsonb) w`,
      [JSON.stringify(plan.workspaces.map(({ index: i, rows, bucket }) => ({ index: i, rows, bucket })))],
    );
    const artifacts = plan.workspaces.flatMap((w) => w.artifacts.map((a) => [w.index, a.document, a.passages]));
    await tx.query(
      `insert into bench.artifact (idx, ws, document, passages)
       select (n - 1)::int, (a->>0)::int, (a->>1)::int, (a->>2)::int from jsonb_array_elements($1::text::jsonb) with ordinality as x(a, n)`,
      [JSON.stringify(artifacts)],
    );
    await tx.exec(`
      create table bench.document as
        select d.document as d, t.v + bench.noise(${SHAPE.norms.document}) as v
        from (select distinct document from bench.artifact) d
        join bench.topic t on t.t = d.document / ${SHAPE.documentsPerTopic};
      alter table bench.document add primary key (d);
      update bench.artifact a set v = d.v + bench.noise(${SHAPE.norms.workspaceCopy}) from bench.document d where d.d = a.document;

      insert into public.workspaces (id, slug, name) select id, 'bench-' || idx, 'Bench workspace ' || idx from bench.workspace;
      -- Every workspace's guild lets every member read channel 1: its passages and the
      -- workspace-wide ones are flagged readable_by_everyone as they are inserted.
      insert into public.guild_facts (workspace_id, guild_id, owner_id, roles, channels, fetched_at, everyone_audiences)
        select id, 'bench', 'bench', '[]', '[]', now(), array['${EVERYONE_CHANNEL}'] from bench.workspace;
      -- Each workspace's sources spread over four audiences (workspace-wide and three channels),
      -- as a server's saves spread over its channels, and a tenth of channel 3's go to a small
      -- staff channel (STAFF_CHANNEL); the chunks take theirs by trigger.
      insert into public.artifacts (id, workspace_id, kind, source_key, title, url, status, chunk_count, audience)
        select a.id, w.id, 'text', 'bench:' || a.idx, 'Shared document d' || a.document,
               'https://example.com/d' || a.document, 'ready', a.passages,
               case when a.idx % 4 = 0 then 'workspace' when a.idx % 40 = 3 then '${STAFF_CHANNEL}' else 'channel:' || (a.idx % 4) end
        from bench.artifact a join bench.workspace w on w.idx = a.ws;

      create table bench.passage (seq serial primary key, artifact int not null, ordinal int not null);
      insert into bench.passage (artifact, ordinal)
        select a.idx, g from bench.artifact a, generate_series(0, a.passages - 1) g order by random();
      insert into public.chunks (workspace_id, artifact_id, ordinal, heading, content, content_hash, token_count,
                                 embedding, embedding_model, is_live)
        select w.id, a.id, p.ordinal, 'Shared document d' || a.document,
               format('Passage %s of shared document d%s on topic t%s.', p.ordinal, a.document, a.document / ${SHAPE.documentsPerTopic}),
               md5(p.seq::text), 12, a.v + bench.noise(${SHAPE.norms.passage}), 'bench-synthetic', true
        from bench.passage p
        join bench.artifact a on a.idx = p.artifact
        join bench.workspace w on w.idx = a.ws;
    `);
  });
  // One statement each: VACUUM cannot run inside the implicit transaction of a multi-statement query.
  for (const table of ['chunks', 'artifacts', 'workspaces']) await db.exec(`vacuum analyze public.${table}`);
  const loadSeconds = seconds(started);
  return { loadSeconds, hnswDefinition: index.def, everyoneDefinition: everyone.def };
}
