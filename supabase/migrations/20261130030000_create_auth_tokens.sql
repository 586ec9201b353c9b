-- One-time tokens for magic links: claiming a workspace after install, and (the dashboard) an
-- operator's login. Only the SHA-256 of a token is stored, so a copy of this table opens nothing.
-- Redemption is one UPDATE … WHERE used_at IS NULL AND expires_at > now(): single use under any
-- concurrency, and an expired token is refused by the database's clock, not the app's.
create table public.auth_tokens (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  purpose text not null check (purpose in ('claim', 'login')),
  email text not null check (position('@' in email) > 1 and length(email) <= 254 and email = lower(email)),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  check (expires_at > created_at)
);

comment on table public.auth_tokens is 'Magic-link tokens, stored as SHA-256 only. Service-only in practice: a token is looked up by its hash before its workspace is known.';

create index auth_tokens_workspace_purpose_idx on public.auth_tokens (workspace_id, purpose, created_at desc);
-- Sweeping expired tokens reads this.
create index auth_tokens_expires_idx on public.auth_tokens (expires_at);

alter table public.auth_tokens enable row level security;
alter table public.auth_tokens force row level security;

-- The tenant role is granted nothing here; the policy still pins it, so a future grant cannot
-- open another workspace's tokens by accident.
create policy auth_tokens_own_workspace on public.auth_tokens
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.auth_tokens from public, anon, authenticated, brain_tenant;
grant select, insert, update, delete on table public.auth_tokens to service_role;
