import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Queryable } from '../src/index.ts';
import { describeDb } from '../src/testing/index.ts';
import { runMatrix, seedWorkspace, TABLES, type Actor, type Seed } from './tenant-matrix.ts';

class Rollback extends Error {}

describeDb('tenant isolation matrix', (suite) => {
  let seeds: { a: Seed; b: Seed };
  let actors: Actor[];

  beforeAll(async () => {
    seeds = await suite.db.transaction(async (tx) => ({
      a: await seedWorkspace(tx, 'matrix-a'),
      b: await seedWorkspace(tx, 'matrix-b'),
    }));
    actors = [
      { name: 'tenant A', kind: 'tenant', seed: seeds.a },
      { name: 'tenant B', kind: 'tenant', seed: seeds.b },
      { name: 'no workspace set', kind: 'setting', value: null },
      { name: 'empty workspace setting', kind: 'setting', value: '' },
      { name: 'unknown workspace id', kind: 'setting', value: randomUUID() },
      { name: 'forged (non-UUID) setting', kind: 'setting', value: "x' or '1'='1", failsWith: '22P02' },
    ];
  });

  /** Runs the matrix (plus an optional weakening of the schema) and rolls everything back. */
  async function matrix(weaken?: (tx: Queryable) => Promise<void>): Promise<string[]> {
    let violations: string[] = [];
    await suite.db
      .transaction(async (tx) => {
        if (weaken) await weaken(tx);
        violations = await runMatrix(tx, seeds, actors);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    return violations;
  }

  it('covers every table in the public schema', async () => {
    const tables = await suite.db.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' order by 1",
    );
    expect(tables.map((t) => t.name)).toEqual(Object.keys(TABLES).sort());
  });

  it('has no views, and no functions callable by a tenant beyond the ones the matrix exercises', async () => {
    const views = await suite.db.query("select viewname from pg_views where schemaname = 'public'");
    expect(views).toEqual([]);
    const callable = await suite.db.query<{ name: string }>(`
      select n.nspname || '.' || p.proname as name
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'brain_private')
        and p.prorettype <> 'trigger'::regtype
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e') -- pgvector's own
        and has_function_privilege('brain_tenant', p.oid, 'execute')
      order by 1`);
    expect(callable.map((f) => f.name)).toEqual(['brain_private.current_workspace_id', 'public.match_artifacts']);
  });

  it('allows exactly the expected rows and refuses every forbidden cell', async () => {
    expect(await matrix()).toEqual([]);
  });

  it('notices a policy weakened to USING (true)', async () => {
    const violations = await matrix((tx) =>
      tx.exec('alter policy artifacts_own_workspace on public.artifacts using (true) with check (true)'),
    );
    expect(violations).toContain(
      `tenant A select artifacts: returned [${[...(seeds.a.rows.artifacts ?? []), ...(seeds.b.rows.artifacts ?? [])].sort().join(', ')}], expected [${seeds.a.rows.artifacts?.join(', ')}]`,
    );
    expect(violations.some((v) => v.startsWith('tenant A insert other artifacts: succeeded'))).toBe(true);
    expect(violations.some((v) => v.startsWith('tenant B delete artifacts'))).toBe(true);
  });

  it('notices row level security switched off on a table', async () => {
    const violations = await matrix((tx) => tx.exec('alter table public.chunks disable row level security'));
    expect(violations.some((v) => v.startsWith('tenant B select chunks: returned'))).toBe(true);
    expect(violations.some((v) => v.startsWith('no workspace set select chunks: returned'))).toBe(true);
  });

  it('notices a grant that should not be there', async () => {
    const violations = await matrix((tx) => tx.exec('grant select on public.stripe_events_seen to brain_tenant'));
    expect(violations.some((v) => v.startsWith('tenant A select stripe_events_seen: succeeded'))).toBe(true);
  });

  it('notices match_artifacts answering for a workspace other than the caller\'s', async () => {
    const violations = await matrix(async (tx) => {
      await tx.exec('alter table public.chunks disable row level security');
      await tx.exec('alter table public.artifacts disable row level security');
    });
    expect(violations).toContain(
      `tenant A match_artifacts(p_workspace_id = B): returned [${seeds.b.rows.chunks?.join(', ')}], expected []`,
    );
  });

  it('keeps a caller that bypasses RLS (service_role) to the p_workspace_id it asked for', async () => {
    const rows = await suite.db.transaction(async (tx) => {
      await tx.exec('set local role service_role');
      return tx.query<{ workspace_id: string }>(`
        select c.workspace_id::text
        from match_artifacts($1::uuid, (select embedding from chunks where workspace_id = $2::uuid limit 1), 'tenancy', 50, -1) m
        join chunks c on c.id = m.chunk_id`, [seeds.a.workspaceId, seeds.b.workspaceId]);
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.workspace_id))).toEqual(new Set([seeds.a.workspaceId]));
  });
});
