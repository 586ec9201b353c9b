import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres, sqlState, withService, type Database, type Queryable } from '../src/index.ts';
import { describeDb, describePostgres, enableAppLogin, type AppLogin } from '../src/testing/index.ts';
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
      where n.nspname in ('public', 'brain', 'brain_private')
        and p.prorettype <> 'trigger'::regtype
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e') -- pgvector's own
        and has_function_privilege('brain_tenant', p.oid, 'execute')
      order by 1`);
    expect(callable.map((f) => f.name).sort()).toEqual(['brain.everyone_flags_current', 'brain.match_artifacts', 'brain_private.current_workspace_id']);
    // Nothing to exercise across tenants: a comparison of its two arguments, which reads no table.
    const [pure] = await suite.db.query<{ volatility: string; body: string }>(
      "select p.provolatile as volatility, p.prosrc as body from pg_proc p where p.oid = 'brain.everyone_flags_current(text[], text[])'::regprocedure",
    );
    expect(pure?.volatility).toBe('i');
    expect(pure?.body).not.toMatch(/\bfrom\b/i);
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
        from brain.match_artifacts($1::uuid, (select embedding from chunks where workspace_id = $2::uuid limit 1), 'tenancy', 50, -1) m
        join chunks c on c.id = m.chunk_id`, [seeds.a.workspaceId, seeds.b.workspaceId]);
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.workspace_id))).toEqual(new Set([seeds.a.workspaceId]));
  });
});

/**
 * The same matrix from a connection that logs in as brain_app, the role the services use in
 * production (20261201070000): no superuser, no BYPASSRLS, owns nothing. On Supabase the owner
 * (postgres) has BYPASSRLS, so only such a login makes Row Level Security bind the connection.
 */
describePostgres("tenant isolation matrix as the app's login role (brain_app)", (suite) => {
  let seeds: { a: Seed; b: Seed };
  let app: Database;
  let login: AppLogin | undefined;

  beforeAll(async () => {
    seeds = await suite.db.transaction(async (tx) => ({
      a: await seedWorkspace(tx, 'app-a'),
      b: await seedWorkspace(tx, 'app-b'),
    }));
    login = await enableAppLogin(suite.url as string);
    app = openPostgres({ url: login.url, display: 'brain_app', prepare: true, maxConnections: 2 });
  });
  afterAll(async () => {
    await app?.close();
    await login?.release();
  });

  it('logs in as a role without superuser or BYPASSRLS', async () => {
    const [me] = await app.query<{ role: string; superuser: boolean; bypass: boolean }>(
      'select current_user as role, rolsuper as superuser, rolbypassrls as bypass from pg_roles where rolname = current_user',
    );
    expect(me).toEqual({ role: 'brain_app', superuser: false, bypass: false });
  });

  it('allows exactly the expected rows and refuses every forbidden cell', async () => {
    const actors: Actor[] = [
      { name: 'tenant A', kind: 'tenant', seed: seeds.a },
      { name: 'tenant B', kind: 'tenant', seed: seeds.b },
      { name: 'no workspace set', kind: 'setting', value: null },
      { name: 'unknown workspace id', kind: 'setting', value: randomUUID() },
      { name: 'forged (non-UUID) setting', kind: 'setting', value: "x' or '1'='1", failsWith: '22P02' },
    ];
    const violations = await app
      .transaction(async (tx) => {
        const found = await runMatrix(tx, seeds, actors);
        throw new Rollback(JSON.stringify(found));
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
        return JSON.parse(error.message) as string[];
      });
    expect(violations).toEqual([]);
  });

  it('reads no table at all before it switches role, even with a workspace set: a forgotten SET LOCAL ROLE fails loudly', async () => {
    const outcomes: string[] = [];
    for (const table of Object.keys(TABLES)) {
      const got = await app
        .transaction(async (tx) => {
          await tx.query("select set_config('app.workspace_id', $1, true)", [seeds.a.workspaceId]);
          return tx.query(`select * from public.${table}`);
        })
        .then((rows) => `${table}: ${rows.length} rows`, (error: unknown) => `${table}: ${sqlState(error)}`);
      outcomes.push(got);
    }
    expect(outcomes).toEqual(Object.keys(TABLES).map((table) => `${table}: 42501`));
  });

  it('switches to service_role for cross-workspace work', async () => {
    const rows = await withService(app, (tx) => tx.query<{ id: string }>('select id::text from workspaces where id = any($1::uuid[])', [[seeds.a.workspaceId, seeds.b.workspaceId]]));
    expect(rows).toHaveLength(2);
  });
});
