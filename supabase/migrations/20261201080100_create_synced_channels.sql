-- /sync: channels, forums and pins a server keeps in the brain. One row per synced channel, with
-- the checkpoint a killed worker resumes from and what /sync list and /sources show.
create table public.synced_channels (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  guild_id text not null check (guild_id ~ '^[0-9]{1,20}$'),
  channel_id text not null check (channel_id ~ '^[0-9]{1,20}$'),
  channel_name text,
  kind text not null check (kind in ('text', 'announcement', 'forum')),
  pins_only boolean not null default false,
  state text not null default 'backfilling' check (state in ('backfilling', 'current', 'paused')),
  -- Why a paused channel is paused, as the person who added it should read it (with the next step).
  pause_code text,
  pause_reason text,
  -- {run, threads_total, threads_done, phase}: run is the job whose pass this is, so a requeued
  -- job skips what its killed attempt already committed.
  checkpoint jsonb not null default '{}'::jsonb check (jsonb_typeof(checkpoint) = 'object'),
  message_count integer not null default 0 check (message_count >= 0),
  source_count integer not null default 0 check (source_count >= 0),
  last_synced_at timestamptz,
  added_by text not null check (length(added_by) between 1 and 254),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (workspace_id, channel_id),
  unique (id, workspace_id),
  check ((state = 'paused') = (pause_reason is not null))
);

comment on table public.synced_channels is '/sync: a channel kept in the brain, its state (backfilling, current, paused with a reason), checkpoint and counts.';

create trigger synced_channels_touch_updated_at
  before update on public.synced_channels
  for each row execute function brain_private.touch_updated_at();

-- One row per source a sync produced (a thread, forum post, pin or channel day), keyed like the
-- artifact it became: which messages it holds, so an edit or delete is traced to its source,
-- and a fingerprint of them, so an unchanged source is not saved (nor embedded) again. It
-- outlives the artifact (artifact_id set null when a forgotten source is purged) so that a
-- source someone forgot is never brought back by the next sync.
create table public.synced_sources (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  synced_channel_id uuid not null,
  source_key text not null,
  unit text not null check (unit in ('thread', 'post', 'pin', 'day')),
  -- The thread, pinned message or channel the unit is read from; for a day, the UTC date.
  discord_id text not null,
  day date,
  artifact_id uuid references public.artifacts (id) on delete set null,
  message_ids text[] not null default '{}',
  fingerprint text,
  forgotten boolean not null default false,
  gone boolean not null default false,
  last_run text,
  synced_at timestamptz not null default now(),
  foreign key (synced_channel_id, workspace_id) references public.synced_channels (id, workspace_id) on delete cascade,
  unique (workspace_id, source_key)
);

comment on table public.synced_sources is '/sync bookkeeping: each synced source, the messages it holds and their fingerprint; forgotten ones stay forgotten.';

create index synced_sources_channel_idx on public.synced_sources (synced_channel_id);
create index synced_sources_message_ids_idx on public.synced_sources using gin (message_ids);

alter table public.synced_channels enable row level security;
alter table public.synced_channels force row level security;
alter table public.synced_sources enable row level security;
alter table public.synced_sources force row level security;

create policy synced_channels_own_workspace on public.synced_channels
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

create policy synced_sources_own_workspace on public.synced_sources
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.synced_channels from public, anon, authenticated;
revoke all on table public.synced_sources from public, anon, authenticated;
grant select, insert, update, delete on table public.synced_channels to brain_tenant, service_role;
grant select, insert, update, delete on table public.synced_sources to brain_tenant, service_role;

-- At most one pending sync per channel: /sync add twice, or a sweep while a backfill runs,
-- queues the work once.
create unique index jobs_one_pending_sync_idx on public.jobs ((payload ->> 'synced_channel_id'))
  where task = 'sync_channel' and status in ('queued', 'running');

-- As 20261201070000 does for the tables before these: Supabase's default privileges would give
-- service_role TRUNCATE, REFERENCES and TRIGGER here too, and nothing needs them.
revoke truncate, references, trigger on table public.synced_channels, public.synced_sources from service_role;
