-- Per-workspace bearer tokens for the MCP server (agents such as Claude Desktop searching one
-- workspace's brain). Created and revoked from the dashboard (and the CLI); the raw token is
-- shown once and only its SHA-256 is kept, so a copy of this table authenticates nothing.
create table public.mcp_tokens (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(name) between 1 and 60 and name = btrim(name)),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  -- Who created it: an operator's email, or "cli".
  created_by text not null check (length(created_by) between 1 and 254),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

comment on table public.mcp_tokens is 'MCP bearer tokens, stored as SHA-256 only; revoked tokens are kept (revoked_at) so the list shows what was cut off.';

create index mcp_tokens_workspace_idx on public.mcp_tokens (workspace_id, created_at desc);
-- Two live tokens with one name would be impossible to tell apart when revoking.
create unique index mcp_tokens_live_name_idx on public.mcp_tokens (workspace_id, lower(name)) where revoked_at is null;

alter table public.mcp_tokens enable row level security;
alter table public.mcp_tokens force row level security;

create policy mcp_tokens_own_workspace on public.mcp_tokens
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

-- The tenant lists, creates and revokes its tokens, and can never read a hash back: there is
-- no SELECT on token_hash, and the only column it may change is revoked_at. Authenticating a
-- token (a lookup by hash across workspaces) runs as service_role.
revoke all on table public.mcp_tokens from public, anon, authenticated, brain_tenant;
grant select (id, workspace_id, name, created_by, created_at, last_used_at, revoked_at) on table public.mcp_tokens to brain_tenant;
grant insert (workspace_id, name, token_hash, created_by) on table public.mcp_tokens to brain_tenant;
grant update (revoked_at) on table public.mcp_tokens to brain_tenant;
grant select, insert, update, delete on table public.mcp_tokens to service_role;
