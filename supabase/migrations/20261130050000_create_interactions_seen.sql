-- interactions_seen: Discord interaction ids already acted on, so a replayed or re-delivered
-- interaction (same id) never saves, answers or forgets twice, whichever instance receives it.
-- Service-only, like stripe_events_seen: no tenant reads or writes it. Rows older than the
-- signature freshness window (5 minutes) cannot be replayed anyway; the web service prunes them.
create table public.interactions_seen (
  interaction_id text primary key check (interaction_id ~ '^[0-9]{1,20}$'),
  received_at timestamptz not null default now()
);

comment on table public.interactions_seen is 'Service-only: no tenant can read or write it.';

create index interactions_seen_received_at_idx on public.interactions_seen (received_at);

alter table public.interactions_seen enable row level security;
alter table public.interactions_seen force row level security;

revoke all on table public.interactions_seen from public, anon, authenticated;
grant select, insert, delete on table public.interactions_seen to service_role;
