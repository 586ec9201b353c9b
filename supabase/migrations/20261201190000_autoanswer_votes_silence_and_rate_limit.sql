-- Auto-answers people can act on (issue 20): 👍/👎 per person, "Still need help?" silencing the
-- bot in a thread, a per-channel rate limit, and the outcomes that say why nothing was answered.

-- silenced_at: someone pressed "Still need help?" and the staff role was pinged; from then on the
-- bot says nothing more in that thread (no follow-up, no further auto-answer).
alter table public.auto_answers
  add column silenced_at timestamptz,
  add column silenced_by text check (silenced_by ~ '^[0-9]{1,20}$');

-- forbidden: Discord refused the post (403, Missing Permissions or Access); rate_limited: the
-- channel had its allowance of auto-answers for the hour.
alter table public.auto_answers drop constraint auto_answers_outcome_check;
alter table public.auto_answers add constraint auto_answers_outcome_check
  check (outcome in ('pending', 'answered', 'uncovered', 'not_entitled', 'failed', 'forbidden', 'rate_limited'));

-- The rate limit counts a channel's recent auto-answers; the dashboard lists them newest first.
create index auto_answers_channel_recent on public.auto_answers (workspace_id, channel_id, created_at desc);

-- At most this many auto-answers per channel in any hour: a flood of posts (a raid, an outage)
-- gets one short line each, not a model call each.
alter table public.autoanswer_channels
  add column max_per_hour integer not null default 20 check (max_per_hour between 1 and 500);

-- auto_answer_votes: 👍/👎 under an auto-answer, one per person and changeable. A thread's answer
-- is read by many, so one vote per query (queries.feedback, /ask's) would keep only the last.
create table public.auto_answer_votes (
  auto_answer_id uuid not null references public.auto_answers (id) on delete cascade,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  user_id text not null check (user_id ~ '^[0-9]{1,20}$'),
  vote text not null check (vote in ('up', 'down')),
  voted_at timestamptz not null default now(),
  primary key (auto_answer_id, user_id)
);

comment on table public.auto_answer_votes is '👍/👎 under an auto-answer: one per person, the latest kept.';

create index auto_answer_votes_workspace on public.auto_answer_votes (workspace_id);

alter table public.auto_answer_votes enable row level security;
alter table public.auto_answer_votes force row level security;

create policy auto_answer_votes_own_workspace on public.auto_answer_votes
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.auto_answer_votes from public, anon, authenticated;
grant select, insert, update, delete on table public.auto_answer_votes to brain_tenant, service_role;
revoke truncate, references, trigger on table public.auto_answer_votes from service_role;
