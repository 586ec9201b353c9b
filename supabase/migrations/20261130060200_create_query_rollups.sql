-- Daily rollups of the queries telemetry, kept by a trigger, so the operator dashboard reads a
-- few hundred rows instead of unnesting every question's JSON: with 10,000 questions in a
-- workspace its pages must render in under 100 ms. The raw rows stay the truth (the Questions
-- page and the settings preview read them); these tables can be rebuilt from them at any time.
--
-- query_day_stats: per workspace and UTC day, questions, unanswered ones, votes, and the
-- similarities of the passages retrieved, in 20 bins of 0.05 (index 1 = [0, 0.05), index 20 =
-- [0.95, 1]), cited ones counted apart.
create table public.query_day_stats (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  day date not null,
  questions integer not null default 0,
  unanswered integer not null default 0,
  up integer not null default 0,
  down integer not null default 0,
  retrieved_bins integer[] not null default array_fill(0, array[20]),
  cited_bins integer[] not null default array_fill(0, array[20]),
  primary key (workspace_id, day),
  check (cardinality(retrieved_bins) = 20 and cardinality(cited_bins) = 20)
);

comment on table public.query_day_stats is 'Per workspace and UTC day: questions, unanswered, votes, similarity bins. Kept by brain_private.tally_query().';

-- query_source_day_stats: per workspace, UTC day and source, how many questions retrieved one of
-- its passages and how many answers cited it. No foreign key to artifacts: a purged source
-- keeps its history (the dashboard calls it "a deleted source").
create table public.query_source_day_stats (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  day date not null,
  artifact_id uuid not null,
  retrieved_in integer not null default 0,
  cited_in integer not null default 0,
  primary key (workspace_id, day, artifact_id)
);

comment on table public.query_source_day_stats is 'Per workspace, UTC day and source: questions retrieving it, answers citing it. Kept by brain_private.tally_query().';

-- Stage latencies as columns: percentiles sort plain numbers instead of parsing JSON per row.
alter table public.queries
  add column latency_embed_ms double precision generated always as (case when jsonb_typeof(latency_ms -> 'embed') = 'number' then (latency_ms ->> 'embed')::double precision end) stored,
  add column latency_search_ms double precision generated always as (case when jsonb_typeof(latency_ms -> 'search') = 'number' then (latency_ms ->> 'search')::double precision end) stored,
  add column latency_generate_ms double precision generated always as (case when jsonb_typeof(latency_ms -> 'generate') = 'number' then (latency_ms ->> 'generate')::double precision end) stored,
  add column latency_total_ms double precision generated always as (case when jsonb_typeof(latency_ms -> 'total') = 'number' then (latency_ms ->> 'total')::double precision end) stored;

-- The trigger runs as whoever wrote the queries row (brain_tenant under withWorkspace, or
-- service_role): no SECURITY DEFINER. A tenant may therefore write its own rollup rows, which
-- gives it nothing it could not get by inserting queries rows, which it may already do.
create function brain_private.tally_query() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  r public.queries;
  s integer;
  d date;
  rb integer[];
  cb integer[];
begin
  -- A vote changes only the day's up/down counts.
  if tg_op = 'UPDATE' and old.workspace_id = new.workspace_id and old.created_at = new.created_at and old.grounded = new.grounded
     and old.retrieved = new.retrieved and old.cited = new.cited then
    update public.query_day_stats t
    set up = t.up + (new.feedback is not distinct from 'up')::int - (old.feedback is not distinct from 'up')::int,
        down = t.down + (new.feedback is not distinct from 'down')::int - (old.feedback is not distinct from 'down')::int
    where t.workspace_id = new.workspace_id and t.day = (new.created_at at time zone 'UTC')::date;
    return null;
  end if;

  foreach s in array case tg_op when 'INSERT' then array[1] when 'DELETE' then array[-1] else array[-1, 1] end loop
    r := case when s < 0 then old else new end;
    d := (r.created_at at time zone 'UTC')::date;
    select array_agg(coalesce(x.retrieved, 0) * s order by g.i), array_agg(coalesce(x.cited, 0) * s order by g.i)
    into rb, cb
    from generate_series(1, 20) as g(i)
    left join (
      select least(greatest(floor((e ->> 'similarity')::double precision * 20)::int, 0), 19) + 1 as i,
             count(*)::int as retrieved,
             count(*) filter (where r.cited @> jsonb_build_array(jsonb_build_object('chunk_id', e -> 'chunk_id')))::int as cited
      from jsonb_array_elements(case when jsonb_typeof(r.retrieved) = 'array' then r.retrieved else '[]'::jsonb end) as e
      where jsonb_typeof(e -> 'similarity') = 'number'
      group by 1
    ) as x on x.i = g.i;

    if s > 0 then
      insert into public.query_day_stats as t (workspace_id, day, questions, unanswered, up, down, retrieved_bins, cited_bins)
      values (r.workspace_id, d, 1, (not r.grounded)::int, (r.feedback is not distinct from 'up')::int, (r.feedback is not distinct from 'down')::int, rb, cb)
      on conflict (workspace_id, day) do update
      set questions = t.questions + 1,
          unanswered = t.unanswered + excluded.unanswered,
          up = t.up + excluded.up,
          down = t.down + excluded.down,
          retrieved_bins = array(select u.a + u.b from unnest(t.retrieved_bins, excluded.retrieved_bins) with ordinality as u(a, b, i) order by u.i),
          cited_bins = array(select u.a + u.b from unnest(t.cited_bins, excluded.cited_bins) with ordinality as u(a, b, i) order by u.i);
    else
      -- Only ever an update: while a workspace is being deleted its rows are going too.
      update public.query_day_stats t
      set questions = t.questions - 1,
          unanswered = t.unanswered - (not r.grounded)::int,
          up = t.up - (r.feedback is not distinct from 'up')::int,
          down = t.down - (r.feedback is not distinct from 'down')::int,
          retrieved_bins = array(select u.a + u.b from unnest(t.retrieved_bins, rb) with ordinality as u(a, b, i) order by u.i),
          cited_bins = array(select u.a + u.b from unnest(t.cited_bins, cb) with ordinality as u(a, b, i) order by u.i)
      where t.workspace_id = r.workspace_id and t.day = d;
    end if;

    with sources as (
      select x.artifact_id::uuid as artifact_id, max(x.cited) as cited
      from (
        select e ->> 'artifact_id' as artifact_id, 0 as cited
        from jsonb_array_elements(case when jsonb_typeof(r.retrieved) = 'array' then r.retrieved else '[]'::jsonb end) as e
        union all
        select c ->> 'artifact_id', 1
        from jsonb_array_elements(case when jsonb_typeof(r.cited) = 'array' then r.cited else '[]'::jsonb end) as c
      ) as x
      where x.artifact_id ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
      group by 1
    ), upserted as (
      insert into public.query_source_day_stats as t (workspace_id, day, artifact_id, retrieved_in, cited_in)
      select r.workspace_id, d, sources.artifact_id, 1, sources.cited from sources where s > 0
      on conflict (workspace_id, day, artifact_id) do update
      set retrieved_in = t.retrieved_in + 1, cited_in = t.cited_in + excluded.cited_in
      returning 1
    )
    update public.query_source_day_stats t
    set retrieved_in = t.retrieved_in - 1, cited_in = t.cited_in - sources.cited
    from sources
    where s < 0 and t.workspace_id = r.workspace_id and t.day = d and t.artifact_id = sources.artifact_id;
  end loop;
  return null;
end
$$;

revoke all on function brain_private.tally_query() from public;

create trigger queries_tally
  after insert or delete or update of workspace_id, created_at, grounded, retrieved, cited, feedback on public.queries
  for each row execute function brain_private.tally_query();

-- What was asked before this migration.
insert into public.query_day_stats (workspace_id, day, questions, unanswered, up, down, retrieved_bins, cited_bins)
select c.workspace_id, c.day, c.questions, c.unanswered, c.up, c.down,
       array(select coalesce(sum(b.retrieved), 0)::int from generate_series(1, 20) as g(i) left join (
         select least(greatest(floor((e ->> 'similarity')::double precision * 20)::int, 0), 19) + 1 as i, 1 as retrieved
         from public.queries q cross join lateral jsonb_array_elements(q.retrieved) as e
         where q.workspace_id = c.workspace_id and (q.created_at at time zone 'UTC')::date = c.day and jsonb_typeof(e -> 'similarity') = 'number'
       ) as b on b.i = g.i group by g.i order by g.i),
       array(select coalesce(sum(b.cited), 0)::int from generate_series(1, 20) as g(i) left join (
         select least(greatest(floor((e ->> 'similarity')::double precision * 20)::int, 0), 19) + 1 as i, 1 as cited
         from public.queries q cross join lateral jsonb_array_elements(q.retrieved) as e
         where q.workspace_id = c.workspace_id and (q.created_at at time zone 'UTC')::date = c.day and jsonb_typeof(e -> 'similarity') = 'number'
           and q.cited @> jsonb_build_array(jsonb_build_object('chunk_id', e -> 'chunk_id'))
       ) as b on b.i = g.i group by g.i order by g.i)
from (
  select workspace_id, (created_at at time zone 'UTC')::date as day, count(*)::int as questions,
         count(*) filter (where not grounded)::int as unanswered,
         count(*) filter (where feedback = 'up')::int as up,
         count(*) filter (where feedback = 'down')::int as down
  from public.queries group by 1, 2
) as c;

insert into public.query_source_day_stats (workspace_id, day, artifact_id, retrieved_in, cited_in)
select q.workspace_id, (q.created_at at time zone 'UTC')::date, x.artifact_id::uuid, count(distinct q.id)::int, count(distinct q.id) filter (where x.cited = 1)::int
from public.queries q
cross join lateral (
  select e ->> 'artifact_id' as artifact_id, 0 as cited from jsonb_array_elements(q.retrieved) as e
  union all
  select c ->> 'artifact_id', 1 from jsonb_array_elements(q.cited) as c
) as x
where x.artifact_id ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
group by 1, 2, 3;

alter table public.query_day_stats enable row level security;
alter table public.query_day_stats force row level security;
alter table public.query_source_day_stats enable row level security;
alter table public.query_source_day_stats force row level security;

create policy query_day_stats_own_workspace on public.query_day_stats
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

create policy query_source_day_stats_own_workspace on public.query_source_day_stats
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

revoke all on table public.query_day_stats, public.query_source_day_stats from public, anon, authenticated, brain_tenant;
-- Insert and update only for the trigger, which runs as the writer of the queries row.
grant select, insert, update on table public.query_day_stats, public.query_source_day_stats to brain_tenant;
grant select, insert, update, delete on table public.query_day_stats, public.query_source_day_stats to service_role;
