-- Extensions, the tenant role and the helper that policies use to read the transaction's workspace.
--
-- On Supabase, enable pgvector in the `extensions` schema before pushing (Dashboard → Database →
-- Extensions); `if not exists` then leaves it where it is. Elsewhere it lands in `public`. Every
-- function below pins `search_path = public, extensions, pg_temp`, so both layouts resolve.
create extension if not exists vector;

-- brain_tenant: what a request for one workspace runs as (SET LOCAL ROLE inside its transaction).
-- NOLOGIN, NOBYPASSRLS, owns nothing: Row Level Security always applies to it.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'brain_tenant') then
    create role brain_tenant nologin nobypassrls noinherit;
  end if;
end
$$;

-- The role that runs migrations (and the app) must be able to switch into brain_tenant.
grant brain_tenant to current_user;

create schema if not exists brain_private;
revoke all on schema brain_private from public;
grant usage on schema brain_private to brain_tenant, service_role;
grant usage on schema public to brain_tenant;

do $$
begin
  if exists (select 1 from pg_namespace where nspname = 'extensions') then
    grant usage on schema extensions to brain_tenant;
  end if;
end
$$;

-- The workspace of the current transaction, or NULL when none is set. A value that is not a UUID
-- raises an error instead of matching nothing silently, so a forged setting fails loudly.
create or replace function brain_private.current_workspace_id()
returns uuid
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
  select nullif(current_setting('app.workspace_id', true), '')::uuid
$$;

revoke all on function brain_private.current_workspace_id() from public;
grant execute on function brain_private.current_workspace_id() to brain_tenant, service_role;
