-- What each workspace has used of its free allowance. A counter, not a count of artifacts or
-- queries: forgetting a source or deleting telemetry must not hand the allowance back. It is
-- incremented with one conditional upsert, so concurrent /save or /ask calls at the limit let
-- exactly the allowance through.
create table public.usage_counters (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  kind text not null check (kind in ('save', 'ask')),
  used integer not null default 0 check (used >= 0),
  updated_at timestamptz not null default now(),
  primary key (workspace_id, kind)
);

comment on table public.usage_counters is 'Metered use per workspace (free allowance). Written by billing as service_role; tenants may read their own.';

alter table public.usage_counters enable row level security;
alter table public.usage_counters force row level security;

create policy usage_counters_own_workspace on public.usage_counters
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.usage_counters from public, anon, authenticated;
grant select on table public.usage_counters to brain_tenant;
grant select, insert, update, delete on table public.usage_counters to service_role;
