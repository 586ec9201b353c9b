-- brain_app: the role the services log in as, so that Row Level Security binds the connection
-- itself. On Supabase every object is owned by `postgres`, which has BYPASSRLS: connected as
-- postgres, a query that forgets `SET LOCAL ROLE brain_tenant` sees every workspace's rows.
-- brain_app has no BYPASSRLS and, being NOINHERIT, no privileges of its own on any table: it can
-- only act by switching, inside a transaction, to brain_tenant (RLS, one workspace) or to
-- service_role (the cross-workspace work: queue, billing). A forgotten switch fails with 42501.
--
-- It is created NOLOGIN: a password does not belong in a migration. The operator enables it once
-- (README "Deploy"): `alter role brain_app with login password '…'`. Where the migrating role
-- may not create roles, this warns and the services keep connecting as the owner.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'brain_app') then
    create role brain_app nologin noinherit nobypassrls;
  end if;
  execute format('grant %I, %I to %I', 'brain_tenant', 'service_role', 'brain_app');
  -- The app's SQL names `vector` unqualified; on Supabase it lives in `extensions`, which only
  -- postgres's own search_path lists (a schema that does not exist is skipped).
  alter role brain_app set search_path = "$user", public, extensions;
exception when insufficient_privilege then
  raise warning 'brain_app was not set up (%): the services must connect as the schema owner, which bypasses RLS; see README "Deploy"', sqlerrm;
end
$$;

-- What brain_app reads before it switches role: the migration ledgers (a service refuses to start
-- on a schema with pending migrations). brain_meta exists when `brain migrate` ran, and
-- supabase_migrations when `supabase db push` did; `brain migrate` grants the same when it creates
-- either later.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'brain_app') then
    return;
  end if;
  if to_regclass('brain_meta.schema_migrations') is not null then
    grant usage on schema brain_meta to brain_app;
    grant select on table brain_meta.schema_migrations to brain_app;
  end if;
  if to_regclass('supabase_migrations.schema_migrations') is not null then
    grant usage on schema supabase_migrations to brain_app;
    grant select on table supabase_migrations.schema_migrations to brain_app;
  end if;
end
$$;

-- Supabase's default privileges give service_role ALL on every new table in public, which
-- includes TRUNCATE (empties a table whatever the policies), TRIGGER (a trigger it creates runs
-- as whoever writes the table next) and REFERENCES. Nothing here needs them: the app's
-- cross-workspace work selects, inserts, updates and deletes. Every table of this schema has
-- forced RLS (20261129000600 and later), which is how they are told from other tables in public.
do $$
declare
  t regclass;
begin
  for t in
    select c.oid::regclass from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relforcerowsecurity
  loop
    execute format('revoke truncate, references, trigger on table %s from service_role', t);
  end loop;
end
$$;
