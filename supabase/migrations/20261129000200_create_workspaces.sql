-- One row per Discord server (or per local workspace for the CLI and the playground).
create table public.workspaces (
  id uuid primary key default gen_random_uuid(),
  guild_id text unique check (guild_id ~ '^[0-9]{1,20}$'),
  slug text not null unique check (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  name text not null default '',
  installed_by text,
  installed_at timestamptz,
  claim_email text check (claim_email is null or position('@' in claim_email) > 1),
  claimed_at timestamptz,
  plan_status text not null default 'none'
    check (plan_status in ('none', 'trialing', 'active', 'past_due', 'canceled')),
  stripe_customer_id text unique,
  stripe_subscription_id text unique,
  plan_period_end timestamptz,
  past_due_since timestamptz,
  -- Retrieval settings an operator may tune for this workspace.
  match_count integer not null default 5 check (match_count between 1 and 20),
  min_similarity double precision not null default 0.15 check (min_similarity >= 0 and min_similarity <= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((claim_email is null) = (claimed_at is null))
);

comment on table public.workspaces is 'A tenant: one Discord server, claimed by one operator email, with its plan.';

-- claim_email is written once. Changing owners is a support action, never an UPDATE that slips by.
create or replace function brain_private.refuse_claim_overwrite()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if old.claim_email is not null and new.claim_email is distinct from old.claim_email then
    raise exception 'workspace % is already claimed; claim_email cannot be overwritten', old.id
      using errcode = 'P0001', hint = 'Ask the current owner, or support, to transfer the workspace.';
  end if;
  return new;
end
$$;

create trigger workspaces_claim_email_once
  before update of claim_email on public.workspaces
  for each row execute function brain_private.refuse_claim_overwrite();

create or replace function brain_private.touch_updated_at()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- Trigger functions are only ever called by their triggers.
revoke all on function brain_private.refuse_claim_overwrite() from public;
revoke all on function brain_private.touch_updated_at() from public;

create trigger workspaces_touch_updated_at
  before update on public.workspaces
  for each row execute function brain_private.touch_updated_at();
