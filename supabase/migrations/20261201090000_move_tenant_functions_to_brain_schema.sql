-- Tenant-facing functions leave `public` for `brain`, a schema the Data API does not expose
-- (issue 19 item 5). Supabase's PostgREST serves every function in an exposed schema at
-- /rest/v1/rpc/<name>: a call as anon was refused, but on supautils 3.2.0–3.2.1 with hint_roles
-- set that refusal crashed the backend. Out of an exposed schema, PostgREST never reaches it.
--
-- The names and signatures stay (DESIGN §3 contract); only the schema changes. The product's SQL
-- calls them schema-qualified (`brain.match_artifacts(...)`), so no connection needs `brain` on
-- its search_path. A function defined by a later migration goes into `brain` too, with the same
-- revokes and grants as below.

-- pgvector's library first, as in every migration that touches a function with hnsw.* in its SET
-- clause (issue 19): a non-superuser may not handle those settings before the library is loaded.
select '[1]'::vector;

create schema if not exists brain;
-- Nothing of `brain` is reachable by PUBLIC, anon or authenticated: no USAGE, so even a function
-- whose EXECUTE were granted by mistake could not be called. Only the roles the app acts as.
revoke all on schema brain from public;
grant usage on schema brain to brain_tenant, service_role;

alter function public.match_artifacts(uuid, vector, text, integer, double precision, text[]) set schema brain;
alter function public.claim_jobs(text, integer, double precision, integer, uuid[]) set schema brain;

-- ALTER … SET SCHEMA keeps each function's ACL; restated so this file alone says who may call them.
revoke all on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[]) from public, anon, authenticated;
grant execute on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[]) to brain_tenant, service_role;
revoke all on function brain.claim_jobs(text, integer, double precision, integer, uuid[]) from public, anon, authenticated, brain_tenant;
grant execute on function brain.claim_jobs(text, integer, double precision, integer, uuid[]) to service_role;
