-- Follow-ups and solved threads (issue 20, items 3 and 4).

-- follow_ups: a message in a thread the bot answered that replies to the bot or mentions it. The
-- row is claimed (unique per message) before any work, so a replayed MESSAGE_CREATE or a second
-- worker's copy answers nothing twice. It keeps what the person wrote and the stand-alone question
-- it was rewritten to (rewritten_by: the chat model, the deterministic rule, or unchanged), which
-- is what queries.question holds for its query (surface follow_up).
create table public.follow_ups (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  channel_id text not null check (channel_id ~ '^[0-9]{1,20}$'),
  thread_id text not null check (thread_id ~ '^[0-9]{1,20}$'),
  message_id text not null check (message_id ~ '^[0-9]{1,20}$'),
  asked_by text not null check (asked_by ~ '^[0-9]{1,20}$'),
  original text not null check (length(original) <= 6000),
  rewritten text check (length(rewritten) <= 6000),
  rewritten_by text check (rewritten_by in ('llm', 'rule', 'unchanged')),
  outcome text not null default 'pending' check (outcome in ('pending', 'answered', 'uncovered', 'not_entitled', 'forbidden', 'failed')),
  reason text,
  query_id uuid references public.queries (id) on delete set null,
  reply_message_id text,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (workspace_id, message_id)
);

create index follow_ups_thread on public.follow_ups (workspace_id, thread_id, created_at);

comment on table public.follow_ups is 'Follow-up questions in threads the bot answered: what was written, the stand-alone rewrite, how it ended.';

-- solved_threads: a thread someone marked solved (a solved tag, a ✅ from its author or a staff
-- role, or "Mark solved"). Saving the thread sets solved in its source's metadata; this row keeps
-- the mark, so a later /sync pass or an edit's refresh, which reread the thread, keep it solved
-- even when no tag says so.
create table public.solved_threads (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  thread_id text not null check (thread_id ~ '^[0-9]{1,20}$'),
  how text not null check (how in ('tag', 'reaction', 'command')),
  marked_by text not null check (length(marked_by) between 1 and 254),
  created_at timestamptz not null default now(),
  primary key (workspace_id, thread_id)
);

comment on table public.solved_threads is 'Threads marked solved, and how: their sources stay solved across refreshes.';

alter table public.follow_ups enable row level security;
alter table public.follow_ups force row level security;
alter table public.solved_threads enable row level security;
alter table public.solved_threads force row level security;

create policy follow_ups_own_workspace on public.follow_ups
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

create policy solved_threads_own_workspace on public.solved_threads
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.follow_ups from public, anon, authenticated;
revoke all on table public.solved_threads from public, anon, authenticated;
grant select, insert, update, delete on table public.follow_ups to brain_tenant, service_role;
grant select, insert, update, delete on table public.solved_threads to brain_tenant, service_role;
revoke truncate, references, trigger on table public.follow_ups, public.solved_threads from service_role;
