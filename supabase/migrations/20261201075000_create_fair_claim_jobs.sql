-- Fair claiming: one workspace with a flood of slow or hanging jobs used to hold every worker slot,
-- because all workspaces shared one queue in arrival order. claim_jobs hands out one job at a time
-- to the workspace with the fewest running jobs, then the one served least recently (round-robin),
-- then the one whose runnable job has waited longest; never more than p_per_workspace running per
-- workspace; SKIP LOCKED on the job row.

-- When each workspace was last given a job: the round-robin turn. One row per workspace that ever
-- had a job, so it grows with workspaces, not with jobs.
create table public.job_claim_turns (
  workspace_id uuid primary key references public.workspaces (id) on delete cascade,
  last_claimed_at timestamptz not null
);

comment on table public.job_claim_turns is 'Round-robin state of the job queue. Written by claim_jobs as service_role; tenants may read their own.';

alter table public.job_claim_turns enable row level security;
alter table public.job_claim_turns force row level security;

create policy job_claim_turns_own_workspace on public.job_claim_turns
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

-- service_role too: Supabase's default privileges would leave it TRUNCATE, REFERENCES and TRIGGER (see 20261201070000).
revoke all on table public.job_claim_turns from public, anon, authenticated, service_role;
grant select on table public.job_claim_turns to brain_tenant;
grant select, insert, update, delete on table public.job_claim_turns to service_role;

-- The loose index scan over queued workspaces and the per-workspace oldest job read this index;
-- the running count reads the second. Both stay small: they hold only queued or running rows.
create index jobs_queued_workspace_idx on public.jobs (workspace_id, run_at, created_at) where status = 'queued';
create index jobs_running_workspace_idx on public.jobs (workspace_id) where status = 'running';

create or replace function public.claim_jobs(
  p_worker_id text,
  p_limit integer,
  p_lease_ms double precision,
  p_per_workspace integer,
  p_artifact_ids uuid[] default null
)
returns setof public.jobs
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
  -- Namespaces the advisory locks ('jobs' in ASCII) so they cannot meet another feature's keys.
  c_lock_class constant integer := 1785684595;
  v_ws record;
  v_running integer;
  v_job public.jobs;
  v_taken integer := 0;
  v_progress boolean;
  v_busy boolean;
  v_waits integer := 0;
begin
  if p_limit < 1 or p_per_workspace < 1 then
    return;
  end if;
  loop
    v_progress := false;
    v_busy := false;
    -- Re-ranked after every job taken: the workspace just served now has one more running.
    for v_ws in
      -- A loose index scan: one probe of jobs_queued_workspace_idx per workspace with runnable
      -- work, which also yields that workspace's oldest runnable job (the index's next column).
      with recursive queued_ws(workspace_id, waiting_since) as (
        (select j.workspace_id, j.run_at from public.jobs j
         where j.status = 'queued' and j.run_at <= now()
           and (p_artifact_ids is null or j.artifact_id = any(p_artifact_ids))
         order by j.workspace_id, j.run_at
         limit 1)
        union all
        select n.workspace_id, n.run_at
        from queued_ws q
        cross join lateral (
          select j.workspace_id, j.run_at from public.jobs j
          where j.status = 'queued' and j.run_at <= now()
            and (p_artifact_ids is null or j.artifact_id = any(p_artifact_ids))
            and j.workspace_id > q.workspace_id
          order by j.workspace_id, j.run_at
          limit 1
        ) n
      )
      select q.workspace_id,
             (select count(*) from public.jobs r where r.status = 'running' and r.workspace_id = q.workspace_id)::integer as running,
             t.last_claimed_at,
             q.waiting_since
      from queued_ws q
      left join public.job_claim_turns t on t.workspace_id = q.workspace_id
      order by 2, 3 nulls first, 4, 1
    loop
      -- Ordered by running count: every workspace after this one is at its cap too.
      exit when v_ws.running >= p_per_workspace;
      -- Another claimer is serving this workspace right now; like SKIP LOCKED, leave it to them.
      -- Held until commit, so the recount below cannot race another claimer past the cap.
      if not pg_try_advisory_xact_lock(c_lock_class, hashtext(v_ws.workspace_id::text)) then
        v_busy := true;
        continue;
      end if;
      select count(*) into v_running from public.jobs r where r.status = 'running' and r.workspace_id = v_ws.workspace_id;
      continue when v_running >= p_per_workspace;

      update public.jobs j
      set status = 'running', attempts = j.attempts + 1, locked_by = p_worker_id,
          lease_expires_at = now() + make_interval(secs => p_lease_ms / 1000)
      where j.id = (
        select n.id from public.jobs n
        where n.status = 'queued' and n.workspace_id = v_ws.workspace_id and n.run_at <= now()
          and (p_artifact_ids is null or n.artifact_id = any(p_artifact_ids))
        order by n.run_at, n.created_at
        limit 1
        for update skip locked
      )
      returning j.* into v_job;
      if found then
        -- clock_timestamp: several jobs taken in one call must still rotate between workspaces.
        insert into public.job_claim_turns as t (workspace_id, last_claimed_at)
        values (v_ws.workspace_id, clock_timestamp())
        on conflict (workspace_id) do update set last_claimed_at = excluded.last_claimed_at;
        return next v_job;
        v_taken := v_taken + 1;
        v_progress := true;
        exit;
      end if;
    end loop;
    exit when v_taken >= p_limit;
    if not v_progress then
      -- Nothing taken only because other claimers held the workspaces: their transactions last
      -- milliseconds, so look again shortly rather than report an empty queue and sleep a poll.
      -- Try-locks only, never a wait: a claimer holding one workspace cannot deadlock another.
      exit when not v_busy or v_taken > 0 or v_waits >= 50;
      v_waits := v_waits + 1;
      perform pg_sleep(0.002);
    end if;
  end loop;
end
$$;

comment on function public.claim_jobs(text, integer, double precision, integer, uuid[]) is
  'Leases up to p_limit runnable jobs, round-robin across workspaces, at most p_per_workspace running per workspace.';

revoke all on function public.claim_jobs(text, integer, double precision, integer, uuid[]) from public, anon, authenticated;
grant execute on function public.claim_jobs(text, integer, double precision, integer, uuid[]) to service_role;
