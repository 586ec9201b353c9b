-- jobs: the ingestion queue. queries: one row per question asked. stripe_events_seen: webhook idempotency.
create table public.jobs (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  artifact_id uuid,
  task text not null check (task ~ '^[a-z][a-z_]{1,40}$'),
  payload jsonb not null default '{}'::jsonb,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  attempts integer not null default 0,
  max_attempts integer not null default 5 check (max_attempts >= 1),
  run_at timestamptz not null default now(),
  locked_by text,
  lease_expires_at timestamptz,
  last_error_code text,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  foreign key (artifact_id, workspace_id) references public.artifacts (id, workspace_id) on delete cascade,
  check ((status = 'running') = (lease_expires_at is not null))
);

create trigger jobs_touch_updated_at
  before update on public.jobs
  for each row execute function brain_private.touch_updated_at();

create table public.queries (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  question text not null,
  answer text,
  grounded boolean not null,
  answerer text not null check (answerer in ('extractive', 'llm', 'none')),
  model text,
  embedding_model text,
  -- [{chunk_id, artifact_id, similarity, rank, vector_rank, keyword_rank, matched_by}]
  retrieved jsonb not null default '[]'::jsonb,
  cited jsonb not null default '[]'::jsonb,
  -- {embed, search, generate, total} in milliseconds
  latency_ms jsonb not null default '{}'::jsonb,
  trimmed boolean not null default false,
  surface text not null default 'cli' check (surface in ('discord', 'playground', 'cli', 'mcp', 'dashboard', 'eval')),
  asked_by text,
  interaction_id text,
  feedback text check (feedback in ('up', 'down')),
  feedback_by text,
  feedback_at timestamptz,
  created_at timestamptz not null default now()
);

create table public.stripe_events_seen (
  event_id text primary key,
  type text not null,
  received_at timestamptz not null default now()
);

comment on table public.stripe_events_seen is 'Service-only: no tenant can read or write it.';
