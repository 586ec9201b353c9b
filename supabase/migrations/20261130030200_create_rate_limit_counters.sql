-- Fixed-window rate limits shared by every web instance (per IP, per workspace, per email).
-- One row per bucket: a hit in a new window resets it, so the table grows with distinct buckets,
-- not with traffic, and old buckets are swept by age.
create table public.rate_limit_counters (
  bucket text primary key check (length(bucket) between 1 and 200),
  window_start timestamptz not null,
  hits integer not null check (hits >= 1)
);

comment on table public.rate_limit_counters is 'Service-only: no tenant can read or write it.';

create index rate_limit_counters_window_idx on public.rate_limit_counters (window_start);

alter table public.rate_limit_counters enable row level security;
alter table public.rate_limit_counters force row level security;

revoke all on table public.rate_limit_counters from public, anon, authenticated;
grant select, insert, update, delete on table public.rate_limit_counters to service_role;
