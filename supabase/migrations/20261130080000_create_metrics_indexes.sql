-- GET /metrics reads recent rows across all workspaces at every scrape (as service_role):
-- asks of the last five minutes, and jobs finished in the last hour. Without these, each
-- scrape would scan the whole of queries and jobs, which only ever grow.
create index queries_created_at_idx on public.queries (created_at);
create index jobs_finished_at_idx on public.jobs (finished_at) where finished_at is not null;
