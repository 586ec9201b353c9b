-- Operator sessions for the web dashboard, started by redeeming a login magic link.
--
-- Server-side rather than a signed cookie: logging out must end the session everywhere at once,
-- a session must die when the workspace's owner changes, and an idle timeout needs a last-seen
-- time the server trusts. All three need a read per request anyway, so the cookie carries only
-- a random 256-bit id and the table keeps its SHA-256: a copy of this table opens nothing.
create table public.dashboard_sessions (
  token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null check (position('@' in email) > 1 and length(email) <= 254 and email = lower(email)),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  -- The absolute end; the idle end is last_seen_at + the idle timeout (the app's constant).
  expires_at timestamptz not null,
  check (expires_at > created_at)
);

comment on table public.dashboard_sessions is 'Dashboard sessions, stored as SHA-256 of the cookie only. Service-only: a session is looked up by its hash before its workspace is known.';

create index dashboard_sessions_workspace_idx on public.dashboard_sessions (workspace_id, created_at desc);
-- Sweeping ended sessions reads this.
create index dashboard_sessions_expires_idx on public.dashboard_sessions (expires_at);
-- A login request names only an address: it finds the workspaces that address owns.
create index workspaces_claim_email_idx on public.workspaces (claim_email) where claim_email is not null;

alter table public.dashboard_sessions enable row level security;
alter table public.dashboard_sessions force row level security;

-- No tenant grant; the policy still pins the role, so a future grant cannot open another
-- workspace's sessions by accident.
create policy dashboard_sessions_own_workspace on public.dashboard_sessions
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.dashboard_sessions from public, anon, authenticated, brain_tenant;
grant select, insert, update, delete on table public.dashboard_sessions to service_role;
