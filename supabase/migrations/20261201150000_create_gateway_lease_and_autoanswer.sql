-- Auto-answers (issue 20): the one Gateway connection per deployment, the channels that answer
-- new posts by themselves, and what each auto-answer did.

-- gateway_leases: which process holds the deployment's Gateway connection. Discord allows one
-- session per shard per bot token, and two sessions would answer every post twice, so a worker
-- connects only while it holds this row; the holder renews it, and when it lapses (the holder
-- died) another takes it over. Service-only, like interactions_seen.
create table public.gateway_leases (
  name text primary key check (length(name) between 1 and 64),
  holder text not null check (length(holder) between 1 and 200),
  acquired_at timestamptz not null default now(),
  expires_at timestamptz not null
);

comment on table public.gateway_leases is 'Service-only: the process holding the Discord Gateway connection, until expires_at.';

alter table public.gateway_leases enable row level security;
alter table public.gateway_leases force row level security;
revoke all on table public.gateway_leases from public, anon, authenticated;
grant select, insert, update, delete on table public.gateway_leases to service_role;
revoke truncate, references, trigger on table public.gateway_leases from service_role;

-- autoanswer_channels: /autoanswer on. A new post or thread in one of these gets one reply.
-- when_uncovered: what the bot does when nothing saved covers the question — a reaction on the
-- post, or a short public line. staff_role_id: who "Still need help?" pings.
create table public.autoanswer_channels (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  guild_id text not null check (guild_id ~ '^[0-9]{1,20}$'),
  channel_id text not null check (channel_id ~ '^[0-9]{1,20}$'),
  channel_name text,
  when_uncovered text not null default 'reaction' check (when_uncovered in ('reaction', 'line')),
  staff_role_id text check (staff_role_id ~ '^[0-9]{1,20}$'),
  enabled_by text not null check (length(enabled_by) between 1 and 254),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (workspace_id, channel_id)
);

comment on table public.autoanswer_channels is '/autoanswer: channels whose new posts and threads get one grounded reply, and what to do when nothing covers them.';

create trigger autoanswer_channels_touch_updated_at
  before update on public.autoanswer_channels
  for each row execute function brain_private.touch_updated_at();

-- auto_answers: one row per thread the bot considered, claimed before any work, so a thread gets
-- at most one auto-answer whichever dispatch (or replay after a RESUME) arrives first. outcome
-- says how the trigger ended, reason why when nothing was posted in public.
create table public.auto_answers (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  channel_id text not null check (channel_id ~ '^[0-9]{1,20}$'),
  thread_id text not null check (thread_id ~ '^[0-9]{1,20}$'),
  message_id text not null check (message_id ~ '^[0-9]{1,20}$'),
  outcome text not null default 'pending' check (outcome in ('pending', 'answered', 'uncovered', 'not_entitled', 'failed')),
  reason text,
  query_id uuid references public.queries (id) on delete set null,
  reply_message_id text,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (workspace_id, thread_id)
);

comment on table public.auto_answers is 'Auto-answers: one per thread, claimed before answering; how each ended and why.';

alter table public.autoanswer_channels enable row level security;
alter table public.autoanswer_channels force row level security;
alter table public.auto_answers enable row level security;
alter table public.auto_answers force row level security;

create policy autoanswer_channels_own_workspace on public.autoanswer_channels
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

create policy auto_answers_own_workspace on public.auto_answers
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.autoanswer_channels from public, anon, authenticated;
revoke all on table public.auto_answers from public, anon, authenticated;
grant select, insert, update, delete on table public.autoanswer_channels to brain_tenant, service_role;
grant select, insert, update, delete on table public.auto_answers to brain_tenant, service_role;
revoke truncate, references, trigger on table public.autoanswer_channels, public.auto_answers from service_role;

-- The queries an auto-answer and a follow-up make are told apart from /ask's.
alter table public.queries drop constraint queries_surface_check;
alter table public.queries add constraint queries_surface_check
  check (surface in ('discord', 'playground', 'cli', 'mcp', 'dashboard', 'eval', 'auto', 'follow_up'));
