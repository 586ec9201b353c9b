import { expect, it } from 'vitest';
import { describeDb } from '../src/testing/index.ts';

describeDb('schema catalog', (suite) => {
  it('enables and forces row level security on every table', async () => {
    const rows = await suite.db.query<{ name: string; enabled: boolean; forced: boolean }>(`
      select c.relname as name, c.relrowsecurity as enabled, c.relforcerowsecurity as forced
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.filter((r) => !r.enabled || !r.forced)).toEqual([]);
  });

  it('gives every table with a workspace_id a policy that pins it to the transaction workspace', async () => {
    const rows = await suite.db.query<{ name: string; policies: number; indexed: boolean }>(`
      select c.relname as name,
             (select count(*)::int from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname
                and p.qual like '%current_workspace_id()%' and p.with_check like '%current_workspace_id()%') as policies,
             exists (select 1 from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
                     where i.indrelid = c.oid and a.attname = 'workspace_id') as indexed
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute col on col.attrelid = c.oid and col.attname = 'workspace_id'
      where n.nspname = 'public' and c.relkind = 'r' order by 1`);
    expect(rows.map((r) => r.name)).toEqual(['artifact_sources', 'artifacts', 'audience_changes', 'auth_tokens', 'auto_answer_votes', 'auto_answers', 'autoanswer_channels', 'chunks', 'dashboard_sessions', 'follow_ups', 'guild_facts', 'job_claim_turns', 'jobs', 'mcp_tokens', 'queries', 'query_day_stats', 'query_source_day_stats', 'solved_threads', 'sync_forgotten_keys', 'synced_channels', 'synced_sources', 'thread_members', 'usage_counters']);
    // One policy each, and a B-tree that leads with workspace_id (the policy and the exact search path use it).
    expect(rows.every((r) => r.policies === 1 && r.indexed)).toBe(true);
  });

  it('defines match_artifacts in brain as SECURITY INVOKER with EXECUTE revoked from public, anon and authenticated', async () => {
    const fns = await suite.db.query<{ secdef: boolean; args: string; config: string[] }>(`
      select prosecdef as secdef, pg_get_function_identity_arguments(oid) as args, proconfig as config
      from pg_proc where proname = 'match_artifacts' and pronamespace = 'brain'::regnamespace`);
    // One definition: a signature that gains a parameter replaces the old one, never sits beside it.
    expect(fns).toHaveLength(1);
    const [fn] = fns;
    expect(fn?.secdef).toBe(false);
    expect(fn?.args).toBe('p_workspace_id uuid, query_embedding vector, query_text text, match_count integer, min_similarity double precision, p_audiences text[], runners_up integer');
    // jit off: the pruned part's disabled Sort made the vector leg JIT-compile, 2 ms of work behind 210 ms of compiling (20261204170000).
    expect(fn?.config).toEqual(expect.arrayContaining(['hnsw.iterative_scan=relaxed_order', 'jit=off']));
    const grants = await suite.db.query<{ role: string; can: boolean }>(`
      select r as role, has_function_privilege(r, 'brain.match_artifacts(uuid, vector, text, integer, double precision, text[], integer)', 'execute') as can
      from unnest(array['anon', 'authenticated', 'brain_tenant', 'service_role']) r order by 1`);
    expect(grants).toEqual([
      { role: 'anon', can: false },
      { role: 'authenticated', can: false },
      { role: 'brain_tenant', can: true },
      { role: 'service_role', can: true },
    ]);
    const publicGrant = await suite.db.query(`
      select 1 from pg_proc p, aclexplode(p.proacl) a
      where p.proname = 'match_artifacts' and a.grantee = 0 and a.privilege_type = 'EXECUTE'`);
    expect(publicGrant).toEqual([]);
  });

  it('keeps every function of its own out of public, which the Data API exposes (issue 19 item 5)', async () => {
    const rows = await suite.db.query<{ name: string }>(`
      select p.proname as name from pg_proc p
      where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`);
    expect(rows).toEqual([]);
    const usage = await suite.db.query<{ role: string; can: boolean }>(`
      select r as role, has_schema_privilege(r, 'brain', 'usage') as can
      from unnest(array['anon', 'authenticated', 'brain_tenant', 'service_role']) r order by 1`);
    expect(usage).toEqual([
      { role: 'anon', can: false },
      { role: 'authenticated', can: false },
      { role: 'brain_tenant', can: true },
      { role: 'service_role', can: true },
    ]);
    const [claim] = await suite.db.query<Record<string, boolean>>(`
      select has_function_privilege('service_role', 'brain.claim_jobs(text, integer, double precision, integer, uuid[])', 'execute') as service,
             has_function_privilege('brain_tenant', 'brain.claim_jobs(text, integer, double precision, integer, uuid[])', 'execute') as tenant,
             has_function_privilege('anon', 'brain.claim_jobs(text, integer, double precision, integer, uuid[])', 'execute') as anon`);
    expect(claim).toEqual({ service: true, tenant: false, anon: false });
  });

  it('refuses anon a call to match_artifacts, qualified or not', async () => {
    const call = (name: string) =>
      suite.db.transaction(async (tx) => {
        await tx.exec('set local role anon');
        return tx.query(`select * from ${name}(gen_random_uuid(), null, 'probe', 5, 0.15)`);
      });
    await expect(call('brain.match_artifacts')).rejects.toMatchObject({ code: '42501' });
    // Unqualified, it does not resolve at all: public no longer has it.
    await expect(call('match_artifacts')).rejects.toMatchObject({ code: '42883' });
  });

  it('has no SECURITY DEFINER function and pins search_path on every function of its own', async () => {
    const rows = await suite.db.query<{ name: string; secdef: boolean; pinned: boolean }>(`
      select n.nspname || '.' || p.proname as name, p.prosecdef as secdef,
             coalesce(exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%'), false) as pinned
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'brain', 'brain_private')
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      order by 1`);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((r) => r.secdef || !r.pinned)).toEqual([]);
  });

  it('grants the Data API roles nothing on any table', async () => {
    const rows = await suite.db.query(`
      select table_name, grantee, privilege_type from information_schema.role_table_grants
      where table_schema = 'public' and grantee in ('anon', 'authenticated', 'PUBLIC')`);
    expect(rows).toEqual([]);
  });

  it('keeps brain_tenant a role that cannot log in, cannot bypass RLS and owns nothing', async () => {
    const [role] = await suite.db.query<{ login: boolean; bypass: boolean; superuser: boolean; owned: number }>(`
      select rolcanlogin as login, rolbypassrls as bypass, rolsuper as superuser,
             ((select count(*) from pg_class where relowner = r.oid) + (select count(*) from pg_proc where proowner = r.oid))::int as owned
      from pg_roles r where rolname = 'brain_tenant'`);
    expect(role).toEqual({ login: false, bypass: false, superuser: false, owned: 0 });
  });

  it('keeps brain_app, the services\' login role, without superuser or BYPASSRLS, owning nothing, acting only through brain_tenant and service_role', async () => {
    // NOLOGIN until the operator gives it a password (docs/deploy.md); tests enable it for a while.
    const [role] = await suite.db.query<Record<string, unknown>>(`
      select rolbypassrls as bypass, rolsuper as superuser, rolinherit as inherit,
             pg_has_role('brain_app', 'brain_tenant', 'member') as tenant, pg_has_role('brain_app', 'service_role', 'member') as service,
             ((select count(*) from pg_class where relowner = r.oid) + (select count(*) from pg_proc where proowner = r.oid))::int as owned,
             exists (select 1 from unnest(coalesce(rolconfig, '{}')) c where c like 'search_path=%extensions%') as extensions_on_path
      from pg_roles r where rolname = 'brain_app'`);
    expect(role).toEqual({ bypass: false, superuser: false, inherit: false, tenant: true, service: true, owned: 0, extensions_on_path: true });
  });

  it('indexes embeddings in two partial HNSW indexes (cosine) that split the embedded rows between them', async () => {
    const indexes = await suite.db.query<{ name: string; method: string; opclass: string; predicate: string; options: string[] }>(`
      select c.relname as name, am.amname as method, opc.opcname as opclass, pg_get_expr(i.indpred, i.indrelid) as predicate, c.reloptions as options
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_am am on am.oid = c.relam
      join pg_opclass opc on opc.oid = i.indclass[0]
      where i.indrelid = 'public.chunks'::regclass and am.amname = 'hnsw'
      order by c.relname`);
    // ef_construction 128 rather than pgvector's 64: with many near-duplicate passages (the same page
    // saved by many workspaces) the default left passages no search could reach (bench:retrieval).
    // Each passage is in exactly one graph: an insert into a second one cost a worker a third of its
    // indexing rate (20261204170000).
    expect(indexes).toEqual([
      { name: 'chunks_embedding_everyone_hnsw_idx', method: 'hnsw', opclass: 'vector_cosine_ops', predicate: '((embedding IS NOT NULL) AND readable_by_everyone)', options: ['m=16', 'ef_construction=128'] },
      {
        name: 'chunks_embedding_restricted_hnsw_idx',
        method: 'hnsw',
        opclass: 'vector_cosine_ops',
        predicate: '((embedding IS NOT NULL) AND (NOT readable_by_everyone))',
        options: ['m=16', 'ef_construction=128'],
      },
    ]);
  });

  it('stores embeddings as vector(1536), NULL until embedded, with a generated tsvector', async () => {
    const rows = await suite.db.query<{ column: string; type: string; nullable: boolean; generated: string }>(`
      select a.attname as column, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable, a.attgenerated as generated
      from pg_attribute a where a.attrelid = 'public.chunks'::regclass and a.attname in ('embedding', 'fts', 'embedding_model', 'content_hash')
      order by 1`);
    expect(rows).toEqual([
      { column: 'content_hash', type: 'text', nullable: false, generated: '' },
      { column: 'embedding', type: 'vector(1536)', nullable: true, generated: '' },
      { column: 'embedding_model', type: 'text', nullable: true, generated: '' },
      { column: 'fts', type: 'tsvector', nullable: true, generated: 's' },
    ]);
  });

  it('refuses, loudly, to overwrite a claimed workspace\'s email', async () => {
    await suite.db.query(
      "insert into workspaces (slug, claim_email, claimed_at) values ('claimed', 'owner@example.com', now())",
    );
    await expect(
      suite.db.query("update workspaces set claim_email = 'thief@example.com' where slug = 'claimed'"),
    ).rejects.toThrow(/already claimed; claim_email cannot be overwritten/);
    const [row] = await suite.db.query<{ claim_email: string }>("select claim_email from workspaces where slug = 'claimed'");
    expect(row?.claim_email).toBe('owner@example.com');
  });
});
