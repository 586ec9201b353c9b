import { randomUUID } from 'node:crypto';
import { expect, type TestContext } from 'vitest';
import { toVectorLiteral, withService, type Database, type Queryable } from '../src/index.ts';
import { indexScans } from '../src/testing/function-plans.ts';
import { prng } from '../src/testing/prng.ts';

export { prng };
export { createWorkspace } from '../src/testing/workspace-fixtures.ts';
export { indexScans, plansOf } from '../src/testing/function-plans.ts';
/** The two partial HNSW indexes that split the passages between them (20261204170000). */
export const EVERYONE_INDEX = 'chunks_embedding_everyone_hnsw_idx';
export const RESTRICTED_INDEX = 'chunks_embedding_restricted_hnsw_idx';

/**
 * Each scan of the flagged part in plans collected by plansOf: whether it checks each candidate's
 * keys ('by keys') or takes every flagged passage ('all flagged'). Asserts there is at least one.
 */
export function flaggedScanKinds(plans: string): string[] {
  const scans = indexScans(plans, EVERYONE_INDEX);
  expect(scans.length, plans).toBeGreaterThan(0);
  return scans.map((scan) => (/audience = ANY/.test(scan) ? 'by keys' : 'all flagged'));
}

export function unitVector(seed: number, dims = 1536): number[] {
  const next = prng(seed);
  const v = Array.from({ length: dims }, () => next() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** `base` nudged towards noise: similar to base, by `weight`. */
export function nearVector(base: number[], seed: number, weight: number): number[] {
  const noise = unitVector(seed, base.length);
  const v = base.map((x, i) => x + weight * (noise[i] as number));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}


export async function createArtifact(tx: Queryable, workspaceId: string, title = 'A source'): Promise<string> {
  const id = randomUUID();
  await tx.query(
    `insert into artifacts (id, workspace_id, kind, source_key, title, url, status)
     values ($1, $2, 'text', $3, $4, $5, 'ready')`,
    [id, workspaceId, `text:${id}`, title, `https://example.com/${id}`],
  );
  return id;
}

export interface ChunkSpec {
  content: string;
  embedding: number[] | null;
  isLive?: boolean;
}

export async function insertChunks(
  tx: Queryable,
  workspaceId: string,
  artifactId: string,
  chunks: ChunkSpec[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const [ordinal, chunk] of chunks.entries()) {
    const rows = await tx.query<{ id: string }>(
      `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash, embedding, embedding_model, is_live)
       values ($1, $2, $3, $4, md5($4), $5::vector, $6, $7) returning id`,
      [
        workspaceId,
        artifactId,
        ordinal,
        chunk.content,
        chunk.embedding ? toVectorLiteral(chunk.embedding) : null,
        chunk.embedding ? 'test-model' : null,
        chunk.isLive ?? chunk.embedding !== null,
      ],
    );
    ids.push((rows[0] as { id: string }).id);
  }
  return ids;
}

/**
 * Many embedded chunks for one workspace, generated inside the database (50 cluster centres plus
 * noise), fast enough for PGlite. The HNSW index is dropped for the load and rebuilt from its own
 * definition afterwards: building once is far cheaper than inserting row by row.
 */
export async function bulkLoadChunks(db: Database, workspaceId: string, count: number, seed: number): Promise<void> {
  await withService(db, async (tx) => {
    const artifactId = await createArtifact(tx, workspaceId, 'Bulk');
    await tx.query('select setseed($1)', [((seed % 1000) / 1000) * 2 - 1]);
    await tx.exec(`
      create temp table if not exists bulk_centres (i int primary key, v vector(1536));
      create temp table if not exists bulk_noise (i int primary key, v vector(1536));
      truncate bulk_centres, bulk_noise;
      insert into bulk_centres select i, array(select random() - 0.5 from generate_series(1, 1536) where i >= 0)::vector from generate_series(0, 49) i;
      insert into bulk_noise select i, array(select (random() - 0.5) * 0.6 from generate_series(1, 1536) where i >= 0)::vector from generate_series(0, 196) i;
    `);
    await tx.query(
      `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash, embedding, embedding_model, is_live)
       select $1, $2, g, 'bulk passage ' || g, md5(g::text), c.v + n.v, 'test-model', true
       from generate_series(0, $3::int - 1) g
       join bulk_centres c on c.i = g % 50
       join bulk_noise n on n.i = g % 197`,
      [workspaceId, artifactId, count],
    );
  });
}

export async function withRebuiltVectorIndex(db: Database, load: () => Promise<void>): Promise<void> {
  // Every HNSW index on chunks (the main one and the everyone-readable partial one): a bulk load
  // inserted into either, one row at a time, is what makes it slow.
  const indexes = await db.query<{ def: string; name: string }>(
    `select pg_get_indexdef(i.indexrelid) as def, c.relname as name
       from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
      where i.indrelid = 'public.chunks'::regclass and am.amname = 'hnsw'
      order by c.relname`,
  );
  for (const index of indexes) await db.exec(`drop index public.${index.name}`);
  try {
    await load();
  } finally {
    for (const index of indexes) await db.exec(index.def);
    await db.exec('analyze public.chunks');
  }
}

/** A unit vector whose cosine with the unit vector `base` is exactly `similarity`. */
export function atSimilarity(base: number[], seed: number, similarity: number): number[] {
  const noise = unitVector(seed, base.length);
  const along = cosine(noise, base);
  const orthogonal = noise.map((x, i) => x - along * (base[i] as number));
  const norm = Math.hypot(...orthogonal);
  const rest = Math.sqrt(1 - similarity * similarity);
  return base.map((x, i) => similarity * x + (rest * (orthogonal[i] as number)) / norm);
}

/**
 * LOAD 'auto_explain' and its settings need a superuser: on a server where the suite's role is not
 * one (Supabase's postgres, the Supabase-like CI server), the plan assertions are skipped, saying so.
 */
export async function skipPlansUnlessSuperuser(db: Database, ctx: TestContext): Promise<void> {
  const [me] = await db.query<{ role: string; superuser: boolean }>('select current_user as role, rolsuper as superuser from pg_roles where rolname = current_user');
  if (me?.superuser) return;
  const reason = `auto_explain needs a superuser and ${me?.role ?? 'this role'} is not one: the plan assertions of this test did not run`;
  console.warn(`[skipped] ${ctx.task.name}: ${reason}`);
  ctx.skip(reason);
}
