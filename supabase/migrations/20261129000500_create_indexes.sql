-- B-trees on workspace_id let the planner (and match_artifacts' exact path) read one tenant's rows
-- without touching anyone else's; they also keep every RLS predicate cheap.
create index artifacts_workspace_created_idx on public.artifacts (workspace_id, created_at desc);
create index chunks_workspace_id_idx on public.chunks (workspace_id);
create index chunks_artifact_id_idx on public.chunks (artifact_id);
create index jobs_workspace_id_idx on public.jobs (workspace_id);
create index jobs_artifact_id_idx on public.jobs (artifact_id);
create index queries_workspace_created_idx on public.queries (workspace_id, created_at desc);

-- The queue's hot path: the next runnable job, and expired leases for the sweeper.
create index jobs_runnable_idx on public.jobs (run_at) where status = 'queued';
create index jobs_lease_idx on public.jobs (lease_expires_at) where status = 'running';
-- At most one pending job of a kind per artifact: saving twice does not queue the work twice.
create unique index jobs_one_pending_per_artifact on public.jobs (artifact_id, task)
  where status in ('queued', 'running');

-- Approximate nearest neighbours over every embedded passage. Partial: a passage waiting for its
-- embedding is not in the index, and a query must say `embedding is not null` to use it.
create index chunks_embedding_hnsw_idx on public.chunks
  using hnsw (embedding vector_cosine_ops)
  where embedding is not null;

-- The lexical leg of hybrid retrieval.
create index chunks_fts_idx on public.chunks using gin (fts);
