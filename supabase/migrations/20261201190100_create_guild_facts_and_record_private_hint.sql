-- A guild's permission facts (issue 14): its roles, its channels with their overwrites and
-- categories, and its owner, as the bot token last read them. Every process (the worker, the
-- interactions handler, MCP) reads them here, so a sync pass that refreshes them changes what
-- every answer may cite at once; an answer that finds them older than 60 s reads them again.
-- One row per workspace (a workspace is one guild). No row, or a row for another guild, means
-- the facts are unknown, and every caller then fails closed.
create table public.guild_facts (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  guild_id text not null,
  owner_id text not null,
  -- [{"id": "...", "permissions": "..."}]: Discord's bit sets stay strings (they outgrow 2^53).
  roles jsonb not null check (jsonb_typeof(roles) = 'array'),
  -- [{"id", "type", "name", "parent_id", "permission_overwrites": [...]}], as GET /guilds/{id}/channels gives them.
  channels jsonb not null check (jsonb_typeof(channels) = 'array'),
  fetched_at timestamptz not null
);

comment on table public.guild_facts is 'A guild''s roles, channels, overwrites and owner as last read with the bot token; refreshed by every sync pass and by an answer that finds them older than 60 s.';

alter table public.guild_facts enable row level security;
alter table public.guild_facts force row level security;

create policy guild_facts_own_workspace on public.guild_facts
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.guild_facts from public, anon, authenticated;
grant select, insert, update, delete on table public.guild_facts to brain_tenant, service_role;
-- As 20261201070000 does: Supabase's default privileges would give service_role these too.
revoke truncate, references, trigger on table public.guild_facts from service_role;

-- Whether a public reply added "a private answer may be available" (issue 14): an audit of what
-- the channel was told. NULL: asked before this column existed.
alter table public.queries add column private_hint_shown boolean;

comment on column public.queries.private_hint_shown is 'True when the reply said a private answer may be available; NULL before 20261201190100.';
