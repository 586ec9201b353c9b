-- An ask that failed (the embedding service down, the chat model timing out) still leaves its
-- queries row: the question, what was retrieved, the latency of the stages that ran, and the
-- AppError code that ended it. NULL on every ask that produced an answer (grounded or not), so
-- "unanswered" and "failed" stay apart on the dashboard.
alter table public.queries
  add column error_code text check (error_code is null or error_code ~ '^[A-Z][A-Z0-9_]{1,63}$');

comment on column public.queries.error_code is 'AppError code of a failed ask; NULL when an answer (grounded or not) was returned.';
