-- Who is in each private thread a /sync reads (GET /channels/{id}/thread-members, issue 14): a
-- private thread's audience is its members, which no role or overwrite expresses. Rows are
-- replaced on every pass over the thread's channel, so a member who left stops counting at the
-- next sync; a thread whose members could not be read has none here, and its sources are then
-- citable only inside the thread itself (fail closed).
create table public.thread_members (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  thread_id text not null,
  user_id text not null,
  synced_at timestamptz not null default now(),
  primary key (workspace_id, thread_id, user_id)
);

comment on table public.thread_members is 'Members of private threads, read by /sync; a private answer may cite a private thread''s source only to its members.';

create index thread_members_user_idx on public.thread_members (workspace_id, user_id);

alter table public.thread_members enable row level security;
alter table public.thread_members force row level security;

create policy thread_members_own_workspace on public.thread_members
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.thread_members from public, anon, authenticated;
grant select, insert, update, delete on table public.thread_members to brain_tenant, service_role;
-- As 20261201070000 does: Supabase's default privileges would give service_role these too.
revoke truncate, references, trigger on table public.thread_members from service_role;

-- Sources someone forgot, by key, for channels no longer synced: /sync remove drops a channel's
-- bookkeeping (synced_sources), and a later /sync add must not bring back what was forgotten,
-- even once the forgotten artifact has been purged.
create table public.sync_forgotten_keys (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  source_key text not null,
  forgotten_at timestamptz not null default now(),
  primary key (workspace_id, source_key)
);

comment on table public.sync_forgotten_keys is '/sync: keys of forgotten sources of removed channels, so re-adding the channel keeps them forgotten.';

alter table public.sync_forgotten_keys enable row level security;
alter table public.sync_forgotten_keys force row level security;

create policy sync_forgotten_keys_own_workspace on public.sync_forgotten_keys
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.sync_forgotten_keys from public, anon, authenticated;
grant select, insert, update, delete on table public.sync_forgotten_keys to brain_tenant, service_role;
revoke truncate, references, trigger on table public.sync_forgotten_keys from service_role;
