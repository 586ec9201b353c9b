-- artifacts: one row per saved source. chunks: its passages, embedded asynchronously.
create table public.artifacts (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  kind text not null check (kind in ('url', 'file', 'text', 'discord_message')),
  -- Identity of the source inside its workspace (normalised URL, Discord message id, or content
  -- hash): saving the same source again refreshes this row instead of adding another.
  source_key text not null,
  url text,
  title text,
  file_name text,
  mime_type text,
  author text,
  saved_by text,
  status text not null default 'queued' check (status in ('queued', 'indexing', 'ready', 'failed')),
  error_code text,
  error_message text,
  content_hash text,
  etag text,
  last_modified text,
  chunk_count integer not null default 0,
  metadata jsonb not null default '{}'::jsonb,
  fetched_at timestamptz,
  indexed_at timestamptz,
  forgotten_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (workspace_id, source_key),
  -- Target of the chunks' composite foreign key: a chunk can only belong to an artifact of its own workspace.
  unique (id, workspace_id),
  check ((status = 'failed') = (error_code is not null))
);

create trigger artifacts_touch_updated_at
  before update on public.artifacts
  for each row execute function brain_private.touch_updated_at();

create table public.chunks (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  artifact_id uuid not null,
  ordinal integer not null check (ordinal >= 0),
  -- Title and heading path ("Guide › Routes › Options"), carried so a passage stands on its own.
  heading text,
  content text not null,
  content_hash text not null,
  token_count integer not null default 0,
  embedding vector(1536),
  embedding_model text,
  -- True for the passages that answer: the artifact's current version, not forgotten.
  -- A re-indexed source is swapped by flipping this in one transaction.
  is_live boolean not null default false,
  fts tsvector generated always as (to_tsvector('english'::regconfig, coalesce(heading, '') || ' ' || content)) stored,
  created_at timestamptz not null default now(),
  foreign key (artifact_id, workspace_id) references public.artifacts (id, workspace_id) on delete cascade,
  check ((embedding is null) = (embedding_model is null)),
  check (not is_live or embedding is not null)
);

comment on column public.chunks.embedding is 'NULL until the worker embeds the passage; NULL rows are outside the HNSW index.';
