-- The original bytes or text of sources that are not re-fetchable URLs (uploads, pasted text,
-- Discord messages), kept so the worker can index them and re-index them later.
create table public.artifact_sources (
  artifact_id uuid primary key,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  mime_type text not null,
  body bytea,
  body_text text,
  byte_size integer not null check (byte_size >= 0 and byte_size <= 20 * 1024 * 1024),
  created_at timestamptz not null default now(),
  foreign key (artifact_id, workspace_id) references public.artifacts (id, workspace_id) on delete cascade,
  check ((body is null) <> (body_text is null))
);

create index artifact_sources_workspace_id_idx on public.artifact_sources (workspace_id);

alter table public.artifact_sources enable row level security;
alter table public.artifact_sources force row level security;

create policy artifact_sources_own_workspace on public.artifact_sources
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.artifact_sources from public, anon, authenticated;
grant select, insert, update, delete on table public.artifact_sources to brain_tenant;
grant select, insert, update, delete on table public.artifact_sources to service_role;

-- Wakes idle workers the moment a job is queued (delivered when the saving transaction commits);
-- workers also poll, so a missed notification only costs a second.
create or replace function brain_private.notify_job_queued()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  perform pg_notify('brain_jobs', new.task);
  return null;
end
$$;

revoke all on function brain_private.notify_job_queued() from public;

create trigger jobs_notify_queued
  after insert or update of status on public.jobs
  for each row when (new.status = 'queued')
  execute function brain_private.notify_job_queued();
