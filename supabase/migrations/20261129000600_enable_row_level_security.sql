-- Every table has RLS enabled AND forced (the owner is not exempt). Tenant tables get one policy
-- for brain_tenant that pins rows to the transaction's workspace; service-only tables get none,
-- so only a role with BYPASSRLS (service_role) can touch them.

alter table public.workspaces enable row level security;
alter table public.workspaces force row level security;
alter table public.artifacts enable row level security;
alter table public.artifacts force row level security;
alter table public.chunks enable row level security;
alter table public.chunks force row level security;
alter table public.jobs enable row level security;
alter table public.jobs force row level security;
alter table public.queries enable row level security;
alter table public.queries force row level security;
alter table public.stripe_events_seen enable row level security;
alter table public.stripe_events_seen force row level security;

-- `(select …)` makes the setting an InitPlan: read once per statement, not once per row.
create policy workspaces_own_row on public.workspaces
  for all to brain_tenant
  using (id = (select brain_private.current_workspace_id()))
  with check (id = (select brain_private.current_workspace_id()));

create policy artifacts_own_workspace on public.artifacts
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

create policy chunks_own_workspace on public.chunks
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

create policy jobs_own_workspace on public.jobs
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

create policy queries_own_workspace on public.queries
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

-- Grants: nothing to the Data API roles (Supabase grants them everything in public by default,
-- and policies do not take grants back); the least each of our roles needs.
revoke all on table public.workspaces, public.artifacts, public.chunks, public.jobs, public.queries,
  public.stripe_events_seen from public, anon, authenticated;

grant select on table public.workspaces to brain_tenant;
grant update (name, match_count, min_similarity) on table public.workspaces to brain_tenant;
grant select, insert, update, delete on table public.artifacts to brain_tenant;
grant select, insert, update, delete on table public.chunks to brain_tenant;
grant select, insert on table public.jobs to brain_tenant;
grant update (status, run_at, finished_at) on table public.jobs to brain_tenant;
grant select, insert on table public.queries to brain_tenant;
grant update (feedback, feedback_by, feedback_at) on table public.queries to brain_tenant;

grant select, insert, update, delete on table public.workspaces, public.artifacts, public.chunks,
  public.jobs, public.queries, public.stripe_events_seen to service_role;
