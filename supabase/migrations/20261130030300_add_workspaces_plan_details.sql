-- What the billing page needs to say about a plan beyond its status: a cancellation scheduled
-- for the period's end, and when Stripe's state was last applied.
alter table public.workspaces
  add column plan_cancel_at_period_end boolean not null default false,
  add column plan_synced_at timestamptz;
