-- Sliding-window rate limits: a fixed window let a client spend its allowance at the end of one
-- window and again at the start of the next (twice the limit within seconds). A hit is now weighed
-- against the current window's admitted hits plus the previous window's, scaled by how much of the
-- previous window still lies within one window length of now (packages/accounts/src/rate-limit).
--
-- hits now counts admitted hits only, so a refused request leaves the counters as they were: a
-- row can be created by a refused hit of a limit of 0, hence hits >= 0.
alter table public.rate_limit_counters drop constraint rate_limit_counters_hits_check;
alter table public.rate_limit_counters add constraint rate_limit_counters_hits_check check (hits >= 0);
alter table public.rate_limit_counters add column previous_hits integer not null default 0 check (previous_hits >= 0);

comment on column public.rate_limit_counters.previous_hits is 'Admitted hits of the window before window_start.';
