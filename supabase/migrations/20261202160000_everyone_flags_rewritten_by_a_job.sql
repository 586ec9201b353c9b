-- Issue 14: a guild-facts change never makes an /ask wait for the passages' everyone flags.
-- 20261202140000 rewrote every changed passage's readable_by_everyone in the statement that stores
-- new facts. When an ask's own 60-second refresh found a channel made private, that ask waited
-- 20-42 s (27,000 passages on PostgreSQL: each flipped row is re-inserted into both HNSW indexes),
-- and on the embedded database that statement held its only connection as long.
--
-- Now storing facts stores them and the everyone set they imply, and nothing else. The flags are
-- rewritten by a queued job (task 'everyone_flags', apps/worker), in batches, which records the
-- set they were made to agree with in guild_facts.everyone_flags_follow. That copy is cleared by
-- any change of the everyone set, so the flags are current exactly when it equals
-- everyone_audiences; until then match_artifacts answers the reserved key 'everyone' by the keys
-- of the current facts instead of by the flag. No answer cites through a stale flag.
--
-- match_artifacts is 20261202150000's definition restated whole (CREATE OR REPLACE needs it), with
-- that fallback folded in: same name, signature, SECURITY INVOKER, settings and grants.
-- pgvector's library first: this file creates a function with hnsw.* settings (issue 19).
select '[1]'::vector;

alter table public.guild_facts add column everyone_flags_follow text[]
  check (array_position(everyone_flags_follow, null) is null);
comment on column public.guild_facts.everyone_flags_follow is
  'The everyone set (everyone_audiences) that every passage''s readable_by_everyone was last verified against by the everyone_flags job; NULL while the flags lag the facts. Cleared by any change of everyone_audiences (20261202160000).';

-- Set comparisons by array equality: each set is kept sorted and without duplicates.
update public.guild_facts
   set everyone_audiences = array(select distinct k from unnest(everyone_audiences) k order by k);
-- The synchronous triggers being replaced kept every passage's flag in the statement that stored
-- the facts: today's flags follow today's sets.
update public.guild_facts set everyone_flags_follow = everyone_audiences;

drop trigger guild_facts_to_everyone_flags_on_insert on public.guild_facts;
drop trigger guild_facts_to_everyone_flags_on_update on public.guild_facts;
drop trigger guild_facts_to_everyone_flags_on_delete on public.guild_facts;
drop function brain_private.guild_facts_to_everyone_flags();

-- Sorted sets; and a stored set that changes is one the flags no longer follow. A new row's flags
-- are unknown (its workspace's passages were flagged without these facts, or by a deleted row's).
-- Only the rewrite job, as service_role, may say the flags follow: a tenant's statement that
-- claimed it would let 'everyone' cite through flags nobody checked.
create function brain_private.guild_facts_everyone_set()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if tg_op = 'UPDATE' and new.everyone_flags_follow is not null
     and new.everyone_flags_follow is distinct from old.everyone_flags_follow
     and current_user = 'brain_tenant' then
    raise exception 'guild_facts.everyone_flags_follow is set only by the everyone_flags job (service_role)'
      using errcode = '42501';
  end if;
  new.everyone_audiences := array(select distinct k from unnest(new.everyone_audiences) k order by k);
  if new.everyone_flags_follow is not null then
    new.everyone_flags_follow := array(select distinct k from unnest(new.everyone_flags_follow) k order by k);
  end if;
  if tg_op = 'INSERT' or new.everyone_audiences is distinct from old.everyone_audiences then
    new.everyone_flags_follow := null;
  end if;
  return new;
end
$$;

create trigger guild_facts_everyone_set
  before insert or update on public.guild_facts
  for each row execute function brain_private.guild_facts_everyone_set();

-- Flags that lag: one rewrite queued per workspace. Deduplicated among queued jobs only, so a
-- change while a rewrite runs queues the next one instead of being lost (the running one may well
-- settle it too; the next then finds nothing to do).
create unique index jobs_one_queued_everyone_flags_idx on public.jobs (workspace_id)
  where task = 'everyone_flags' and status = 'queued';

-- As the writer of the facts (a tenant may queue its own jobs; RLS checks the workspace).
create function brain_private.guild_facts_queue_everyone_flags()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  insert into public.jobs (workspace_id, task, payload, max_attempts)
  values (new.workspace_id, 'everyone_flags', jsonb_build_object('reason', lower(tg_op)), 8)
  on conflict (workspace_id) where task = 'everyone_flags' and status = 'queued' do nothing;
  return null;
end
$$;

create trigger guild_facts_queue_everyone_flags_on_insert
  after insert on public.guild_facts
  for each row execute function brain_private.guild_facts_queue_everyone_flags();
create trigger guild_facts_queue_everyone_flags_on_update
  after update of everyone_audiences on public.guild_facts
  for each row when (old.everyone_audiences is distinct from new.everyone_audiences)
  execute function brain_private.guild_facts_queue_everyone_flags();

-- A passage's flag is still derived from its audience and the current stored set, now under a
-- shared per-workspace advisory lock held to the writer's commit. The job takes the same lock
-- exclusively before it checks every flag and marks them current: a writer that read older facts
-- and has not committed yet would otherwise be invisible to that check and commit a stale flag
-- after it (READ COMMITTED: each statement here reads the facts committed before the lock).
create or replace function brain_private.chunk_takes_everyone_flag()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  -- 'evfl' in ASCII: the lock class of the everyone flags.
  perform pg_advisory_xact_lock_shared(1702258284, hashtext(new.workspace_id::text));
  new.readable_by_everyone := new.audience = 'workspace'
    or (new.audience like 'channel:%' and coalesce(
      (select new.audience = any(g.everyone_audiences) from public.guild_facts g where g.workspace_id = new.workspace_id),
      false));
  return new;
end
$$;

revoke all on function brain_private.guild_facts_everyone_set() from public;
revoke all on function brain_private.guild_facts_queue_everyone_flags() from public;
revoke all on function brain_private.chunk_takes_everyone_flag() from public;
create or replace function brain.match_artifacts(
  p_workspace_id uuid,
  query_embedding vector(1536),
  query_text text default null,
  match_count integer default 5,
  min_similarity double precision default 0.15,
  p_audiences text[] default array['workspace']
)
returns table (
  chunk_id uuid,
  artifact_id uuid,
  title text,
  url text,
  heading text,
  content text,
  similarity double precision,
  vector_rank integer,
  keyword_rank integer,
  score double precision,
  matched_by text[]
)
language plpgsql
stable
security invoker
set search_path = public, extensions, pg_temp
set hnsw.iterative_scan = relaxed_order
set hnsw.ef_search = 100
set plan_cache_mode = force_custom_plan
set enable_sort = on
as $$
#variable_conflict use_column
declare
  v_depth integer;
  -- The reserved key 'everyone', alone: what every member of the server may read, filtered on the
  -- passages' flag, which the partial index chunks_embedding_everyone_hnsw_idx holds before the scan,
  -- while the flags follow the stored facts (see the fallback below).
  v_everyone boolean := coalesce(p_audiences = array['everyone']::text[], false);
  v_flags_current boolean;
  v_everyone_keys text[];
  v_exact_max integer := coalesce(nullif(current_setting('brain.exact_search_max_rows', true), '')::integer, 1000);
  -- An audience filter leaves about a quarter of the HNSW candidates standing (tenant and audience
  -- are checked after the index yields): the index path pays more per passage it keeps, and the
  -- exact path over the allowed rows stays cheaper, and exact, up to a larger count (bench:retrieval --audience).
  v_exact_max_filtered integer := coalesce(nullif(current_setting('brain.exact_search_max_filtered_rows', true), '')::integer, 3000);
  v_exact_limit integer;
  v_probe_tuples integer := coalesce(nullif(current_setting('brain.hnsw_probe_max_tuples', true), '')::integer, 5000);
  -- The full budget is whatever the session has (pgvector's default 20,000); the probe never exceeds it.
  v_full_tuples text := current_setting('hnsw.max_scan_tuples');
  v_exact boolean;
  v_nearest double precision;
  v_rrf_k constant double precision := 60;
  -- The keyword leg's weight when the vector leg is flat (see the header).
  v_flat_gap constant double precision := 0.025;
  v_flat_keyword_weight constant double precision := 5;
  v_keyword_weight double precision := 1;
  v_vector_distances double precision[] := '{}';
  v_same_source_decay constant double precision := 0.7;
  v_tenant_rows integer;
  v_vector_ids uuid[] := '{}';
  v_keyword_ids uuid[] := '{}';
  v_lexeme text;
  v_tsquery tsquery;
  v_budget integer;
  v_short_but_relevant boolean;
begin
  if p_workspace_id is null then
    return;
  end if;
  if match_count is null or match_count < 1 or match_count > 50 then
    raise exception 'match_count must be between 1 and 50, got %', match_count using errcode = '22023';
  end if;
  -- Candidates per leg: deep enough that fusion can promote a passage ranked low by one leg.
  v_depth := greatest(match_count * 12, 60);

  -- 'everyone' by the flag only while the flags follow the stored facts exactly; while a rewrite
  -- is pending (or without facts) the same set by keys: 'workspace' and the stored everyone-readable
  -- channels. Either way the call cites what every member may read by the latest stored facts, and
  -- never through a flag those facts no longer justify, whatever the caller judged from.
  if v_everyone then
    select g.everyone_flags_follow is not null and g.everyone_flags_follow = g.everyone_audiences,
           array(select k from unnest(g.everyone_audiences) k where k like 'channel:%')
      into v_flags_current, v_everyone_keys
    from public.guild_facts g
    where g.workspace_id = p_workspace_id;
    if not coalesce(v_flags_current, false) then
      v_everyone := false;
      p_audiences := array['workspace'] || coalesce(v_everyone_keys, '{}');
    end if;
  end if;

  if query_embedding is not null then
    v_exact_limit := case when p_audiences is null then v_exact_max else greatest(v_exact_max, v_exact_max_filtered) end;
    select count(*) into v_tenant_rows
    from (
      select 1 from public.chunks c
      where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
        and (p_audiences is null or (v_everyone and c.readable_by_everyone) or (not v_everyone and c.audience = any(p_audiences)))
      limit v_exact_limit + 1
    ) s;
    v_exact := v_tenant_rows <= v_exact_limit;

    if not v_exact then
      perform set_config('enable_sort', 'off', true);
      -- Filtered, a wider first batch (ef_search 130, not 100) instead of reading half as many
      -- candidates again: the relaxed-order scan then yields the nearest allowed rows nearly in
      -- order, and stops at v_depth. The function's SET clause restores ef_search on return.
      -- The 'everyone' call scans its own partial index, where the filter has already been applied,
      -- with the unfiltered call's settings.
      if p_audiences is not null and not v_everyone then
        perform set_config('hnsw.ef_search', '130', true);
      end if;
      -- The probe's budget, then (when it came back short but relevant: the tenant has passages
      -- near the question that the probe did not reach) the full one.
      foreach v_budget in array array[least(v_probe_tuples, v_full_tuples::integer), v_full_tuples::integer] loop
        perform set_config('hnsw.max_scan_tuples', v_budget::text, true);
        select coalesce((array_agg(x.id order by x.distance, x.content_hash, x.id))[1:v_depth], '{}'), min(x.distance),
               coalesce((array_agg(x.distance order by x.distance, x.content_hash, x.id))[1:v_depth], '{}')
          into v_vector_ids, v_nearest, v_vector_distances
        from (
          select c.id, c.content_hash, c.embedding <=> query_embedding as distance
          from public.chunks c
          -- The 'everyone' call leaves "embedding is not null" out (is_live implies it: chunks_check1),
          -- so the main index, whose predicate it is, cannot serve it and only the everyone-readable
          -- one can: when both are about as large, the planner costs them alike and may pick either.
          where c.workspace_id = p_workspace_id and (v_everyone or c.embedding is not null) and c.is_live
            and (p_audiences is null or (v_everyone and c.readable_by_everyone) or (not v_everyone and c.audience = any(p_audiences)))
          order by c.embedding <=> query_embedding
          limit v_depth
        ) x;
        v_short_but_relevant := cardinality(v_vector_ids) < v_depth
                                and coalesce(1 - v_nearest >= coalesce(min_similarity, -1), false);
        exit when not v_short_but_relevant or v_budget >= v_full_tuples::integer;
      end loop;
      -- Back to the session's value: set_config(..., true) would otherwise outlive this call.
      perform set_config('hnsw.max_scan_tuples', v_full_tuples, true);
      perform set_config('enable_sort', 'on', true);
      -- Still short after the full budget, and what was found is relevant: search exactly. When
      -- nothing relevant was found, the question is about something this workspace never saved,
      -- the exact path would read all of its passages only to drop them below min_similarity,
      -- and the short list stands.
      v_exact := v_short_but_relevant;
    end if;

    if v_exact then
      -- "+ 0" hides the ordering from the HNSW index: this is the exact path.
      select coalesce(array_agg(x.id order by x.distance, x.content_hash, x.id), '{}'),
             coalesce(array_agg(x.distance order by x.distance, x.content_hash, x.id), '{}')
        into v_vector_ids, v_vector_distances
      from (
        select c.id, c.content_hash, (c.embedding <=> query_embedding) + 0 as distance
        from public.chunks c
        where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
        and (p_audiences is null or (v_everyone and c.readable_by_everyone) or (not v_everyone and c.audience = any(p_audiences)))
        order by (c.embedding <=> query_embedding) + 0, c.content_hash, c.id
        limit v_depth
      ) x;
    end if;
  end if;

  if query_text is not null then
    -- OR of the question's lexemes: a question rarely contains every word of the passage that answers it.
    foreach v_lexeme in array coalesce(
      (tsvector_to_array(to_tsvector('english'::regconfig, left(query_text, 2000))))[1:32], '{}')
    loop
      v_tsquery := case
        when v_tsquery is null then quote_literal(v_lexeme)::tsquery
        else v_tsquery || quote_literal(v_lexeme)::tsquery
      end;
    end loop;

    if v_tsquery is not null then
      select coalesce(array_agg(x.id order by x.rank desc, x.content_hash, x.id), '{}') into v_keyword_ids
      from (
        select c.id, c.content_hash, ts_rank(c.fts, v_tsquery, 1) as rank
        from public.chunks c
        where c.workspace_id = p_workspace_id and c.is_live and c.fts @@ v_tsquery
          and (p_audiences is null or (v_everyone and c.readable_by_everyone) or (not v_everyone and c.audience = any(p_audiences)))
        order by ts_rank(c.fts, v_tsquery, 1) desc, c.content_hash, c.id
        limit v_depth
      ) x;
    end if;
  end if;

  -- A flat vector leg: its first passage is barely more similar than its fifth, so the embedding
  -- singles nothing out (a paraphrase whose words the answer does not use), and the keyword leg's
  -- order decides.
  if query_text is not null and cardinality(v_vector_distances) >= 5
     and v_vector_distances[5] - v_vector_distances[1] < v_flat_gap then
    v_keyword_weight := v_flat_keyword_weight;
  end if;

  return query
  with v as (
    select u.id, u.ord::integer as rnk from unnest(v_vector_ids) with ordinality as u(id, ord)
  ),
  k as (
    select u.id, u.ord::integer as rnk from unnest(v_keyword_ids) with ordinality as u(id, ord)
  ),
  fused as (
    select coalesce(v.id, k.id) as id,
           v.rnk as v_rank,
           k.rnk as k_rank,
           coalesce(1.0 / (v_rrf_k + v.rnk), 0) + coalesce(v_keyword_weight / (v_rrf_k + k.rnk), 0) as rrf
    from v full outer join k on k.id = v.id
  ),
  scored as (
    select f.*, c.artifact_id, c.heading, c.content, c.content_hash,
           case when query_embedding is null then null
                else 1 - (c.embedding <=> query_embedding) end as sim
    from fused f
    -- `id = any(...)` of the candidates makes this a primary-key lookup. Joined on f.id alone
    -- (an expression over the full join), the planner could only filter a scan of every passage
    -- of the workspace (27,000 rows for the largest), and did.
    join public.chunks c on c.id = f.id and c.workspace_id = p_workspace_id
                        and c.id = any(v_vector_ids || v_keyword_ids)
                        and (p_audiences is null or (v_everyone and c.readable_by_everyone) or (not v_everyone and c.audience = any(p_audiences)))
  )
  -- score is the fused score after that discount, so the rows come back in score order.
  select t.id, t.artifact_id, t.title, t.url, t.heading, t.content,
         t.sim, t.v_rank, t.k_rank, t.rrf * power(v_same_source_decay, t.nth - 1), t.matched_by
  from (
    select s.id, s.artifact_id, a.title, a.url, s.heading, s.content, s.content_hash,
           s.sim::double precision as sim, s.v_rank, s.k_rank, s.rrf::double precision as rrf,
           array_remove(array[
             case when s.v_rank is not null then 'vector' end,
             case when s.k_rank is not null then 'keyword' end
           ], null) as matched_by,
           row_number() over (partition by s.artifact_id order by s.rrf desc, s.sim desc nulls last, s.content_hash, s.id) as nth
    from scored s
    join public.artifacts a on a.id = s.artifact_id and a.workspace_id = p_workspace_id
                           -- A flagged passage's audience is its artifact's (triggers): the flag vouches for both.
                           and (p_audiences is null or v_everyone or a.audience = any(p_audiences))
    -- The keyword leg's own top match_count is what keyword mode returns: never filtered out.
    where query_embedding is null or s.sim >= min_similarity or s.k_rank <= match_count
  ) t
  -- Each further passage of a source counts 70 % of the one before it: one long source no longer
  -- fills every slot, yet a source that is by far the best still gives several passages.
  order by t.rrf * power(v_same_source_decay, t.nth - 1) desc, t.sim desc nulls last, t.content_hash, t.id
  limit match_count;
end
$$;

comment on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[]) is
  'Hybrid (vector + full text, RRF; the keyword leg weighs 5x when the vector leg is flat) retrieval for one workspace and the audiences a reply may cite (array[''everyone'']: what every member may read, by the passages'' readable_by_everyone flag while guild_facts.everyone_flags_follow is current, else by the stored everyone set''s keys); SECURITY INVOKER with explicit tenant and audience predicates.';

-- CREATE OR REPLACE keeps the ACL; restated so this file alone says who may call it.
revoke all on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[]) from public, anon, authenticated;
grant execute on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[]) to brain_tenant, service_role;
