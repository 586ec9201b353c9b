-- Issue 15: the passages just past the k from the call that found the k.
--
-- /ask reads up to two "runners-up" past the k when both legs rank them in their first three
-- (packages/answer/src/agreed-runners-up.ts). They came from a second match_artifacts call for
-- match_count + 10, because a larger match_count also reads more candidates per leg
-- (greatest(12 x match_count, 60)) and lets more keyword matches past the similarity floor
-- (k_rank <= match_count), which moved the k itself for 13-43 % of the eval sets' questions. That
-- second call repeated both legs' work for about seven questions in ten.
--
-- runners_up (default 0) returns that many rows past match_count, continuing the same fused order,
-- while the depth per leg and the floor stay match_count's: the first match_count rows are exactly
-- those of a call without it. At most 50 rows in all, as before.
--
-- The signature gains a parameter, so the six-argument function is dropped and the seven-argument
-- one created: callers that name or position the first six arguments are unaffected (the seventh
-- defaults to 0). Otherwise 20261204170000's definition restated whole: same body, SECURITY
-- INVOKER, settings and grants.
-- pgvector's library first: this file creates a function with hnsw.* settings (issue 19).
select '[1]'::vector;

drop function brain.match_artifacts(uuid, vector, text, integer, double precision, text[]);

create function brain.match_artifacts(
  p_workspace_id uuid,
  query_embedding vector(1536),
  query_text text default null,
  match_count integer default 5,
  min_similarity double precision default 0.15,
  p_audiences text[] default array['workspace'],
  runners_up integer default 0
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
set jit = off
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
  -- The vector leg searches the passages in two disjoint parts, each through its own HNSW index:
  -- the flagged ones (readable_by_everyone) and the rest (see the header).
  -- Whether the call may cite every flagged passage, so that their part needs no key filter.
  v_flagged_all boolean := false;
  -- The rest of the allowed passages, counted and, when few, searched exactly.
  v_rest_rows integer;
  v_rest_exact boolean := false;
  v_rest_ids uuid[] := '{}';
  v_rest_distances double precision[] := '{}';
  v_rest_hashes text[] := '{}';
  -- What each index scan yielded in a round of the budget loop, and the flagged passages the call
  -- may cite, counted up to a leg's depth when its scan came back with fewer.
  v_flagged_found integer;
  v_restricted_found integer;
  v_flagged_allowed integer;
  v_part_short boolean;
  v_exact_max integer := coalesce(nullif(current_setting('brain.exact_search_max_rows', true), '')::integer, 1000);
  -- An audience filter leaves about a quarter of the HNSW candidates standing (tenant and audience
  -- are checked after the index yields): the index path pays more per passage it keeps, and the
  -- exact path over the allowed rows stays cheaper, and exact, up to a larger count (bench:retrieval --audience).
  v_exact_max_filtered integer := coalesce(nullif(current_setting('brain.exact_search_max_filtered_rows', true), '')::integer, 3000);
  -- The most passages of the restricted part searched exactly beside the flagged part's index. 3,000,
  -- as v_exact_max_filtered: up to that size an exact search of a filtered set was measured cheaper
  -- than the index. A setting of its own, so that forcing the index path leaves it be.
  v_rest_exact_max integer := coalesce(nullif(current_setting('brain.restricted_exact_max_rows', true), '')::integer, 3000);
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
  if runners_up is null or runners_up < 0 or match_count + runners_up > 50 then
    raise exception 'runners_up must be between 0 and % (50 rows in all), got %', 50 - match_count, runners_up using errcode = '22023';
  end if;
  -- Candidates per leg: deep enough that fusion can promote a passage ranked low by one leg.
  v_depth := greatest(match_count * 12, 60);

  -- 'everyone' by the flag only while the flags follow the stored facts exactly; while a rewrite
  -- is pending (or without facts) the same set by keys: 'workspace' and the stored everyone-readable
  -- channels. Either way the call cites what every member may read by the latest stored facts, and
  -- never through a flag those facts no longer justify, whatever the caller judged from.
  if v_everyone then
    select brain.everyone_flags_current(g.everyone_flags_follow, g.everyone_audiences),
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
      -- The flagged part needs no key filter when the call may cite every flagged passage: the
      -- unfiltered call, the 'everyone' call (its flags are current, checked above), and a call by
      -- keys that holds the everyone set while the flags follow the facts that define it.
      if p_audiences is null or v_everyone then
        v_flagged_all := true;
      else
        select brain.everyone_flags_current(g.everyone_flags_follow, g.everyone_audiences),
               array['workspace'] || array(select k from unnest(g.everyone_audiences) k where k like 'channel:%')
          into v_flags_current, v_everyone_keys
        from public.guild_facts g
        where g.workspace_id = p_workspace_id;
        v_flagged_all := coalesce(v_flags_current, false) and v_everyone_keys <@ p_audiences;
      end if;

      -- The restricted part (never the 'everyone' call's): counted through
      -- chunks_workspace_restricted_live_idx, and searched exactly when it is small.
      if not v_everyone then
        select count(*) into v_rest_rows
        from (
          select 1 from public.chunks c
          where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live and not c.readable_by_everyone
            and (p_audiences is null or c.audience = any(p_audiences))
          limit v_rest_exact_max + 1
        ) s;
        v_rest_exact := v_rest_rows <= v_rest_exact_max;
        if v_rest_exact and v_rest_rows > 0 then
          -- "+ 0" hides the ordering from the HNSW index: this part is exact.
          select coalesce(array_agg(restricted.id order by restricted.distance, restricted.content_hash, restricted.id), '{}'),
                 coalesce(array_agg(restricted.distance order by restricted.distance, restricted.content_hash, restricted.id), '{}'),
                 coalesce(array_agg(restricted.content_hash order by restricted.distance, restricted.content_hash, restricted.id), '{}')
            into v_rest_ids, v_rest_distances, v_rest_hashes
          from (
            select c.id, c.content_hash, (c.embedding <=> query_embedding) + 0 as distance
            from public.chunks c
            where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live and not c.readable_by_everyone
              and (p_audiences is null or c.audience = any(p_audiences))
            order by (c.embedding <=> query_embedding) + 0, c.content_hash, c.id
            limit v_depth
          ) restricted;
        end if;
      end if;

      perform set_config('enable_sort', 'off', true);
      -- Filtered after the index yields (tenant and keys are checked on each candidate), a wider
      -- first batch (ef_search 130, not 100) instead of reading half as many candidates again: the
      -- relaxed-order scan then yields the nearest allowed rows nearly in order, and stops at
      -- v_depth. The function's SET clause restores ef_search on return. A flagged part that
      -- needs no key filter, beside an exact restricted part, keeps the unfiltered call's settings.
      if p_audiences is not null and not (v_flagged_all and (v_everyone or v_rest_exact)) then
        perform set_config('hnsw.ef_search', '130', true);
      end if;
      -- The probe's budget, then (when it came back short but relevant: the tenant has passages
      -- near the question that the probe did not reach) the full one.
      foreach v_budget in array array[least(v_probe_tuples, v_full_tuples::integer), v_full_tuples::integer] loop
        perform set_config('hnsw.max_scan_tuples', v_budget::text, true);
        select coalesce((array_agg(x.id order by x.distance, x.content_hash, x.id))[1:v_depth], '{}'), min(x.distance),
               coalesce((array_agg(x.distance order by x.distance, x.content_hash, x.id))[1:v_depth], '{}'),
               count(*) filter (where x.part = 'flagged'), count(*) filter (where x.part = 'restricted')
          into v_vector_ids, v_nearest, v_vector_distances, v_flagged_found, v_restricted_found
        from (
          -- The flagged part, through chunks_embedding_everyone_hnsw_idx (its predicate is this one).
          (select c.id, c.content_hash, c.embedding <=> query_embedding as distance, 'flagged' as part
          from public.chunks c
          where c.workspace_id = p_workspace_id and c.embedding is not null and c.readable_by_everyone and c.is_live
            and (v_flagged_all or c.audience = any(p_audiences))
          order by c.embedding <=> query_embedding
          limit v_depth)
          union all
          -- The restricted part when it is large, through chunks_embedding_restricted_hnsw_idx.
          (select c.id, c.content_hash, c.embedding <=> query_embedding as distance, 'restricted' as part
          from public.chunks c
          where not v_everyone and not v_rest_exact
            and c.workspace_id = p_workspace_id and c.embedding is not null and not c.readable_by_everyone and c.is_live
            and (p_audiences is null or c.audience = any(p_audiences))
          order by c.embedding <=> query_embedding
          limit v_depth)
          union all
          -- The restricted part when it is small, searched exactly above.
          select r.id, r.content_hash, r.distance, 'exact' as part
          from unnest(v_rest_ids, v_rest_hashes, v_rest_distances) as r(id, content_hash, distance)
          where v_rest_exact
        ) x;
        -- Short: an index scan stopped (its budget spent) before it yielded a leg's depth of rows
        -- it may cite, and more exist. Each part is judged on its own: the other part's rows can
        -- fill the merged list while this one missed nearer passages. The restricted part's scan
        -- runs only when it holds more than a leg's depth; the flagged part may hold fewer, so
        -- they are counted (up to that depth, through chunks_workspace_everyone_live_idx).
        v_part_short := not v_everyone and not v_rest_exact and v_restricted_found < v_depth;
        if not v_part_short and v_flagged_found < v_depth then
          select count(*) into v_flagged_allowed
          from (
            select 1 from public.chunks c
            where c.workspace_id = p_workspace_id and c.embedding is not null and c.readable_by_everyone and c.is_live
              and (v_flagged_all or c.audience = any(p_audiences))
            limit v_depth
          ) s;
          v_part_short := v_flagged_found < v_flagged_allowed;
        end if;
        v_short_but_relevant := v_part_short
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
  -- The runners-up are the same fused order's next rows: the depth and the floor above are
  -- match_count's, so the first match_count rows are those of a call without them.
  limit match_count + runners_up;
end
$$;

comment on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[], integer) is
  'Hybrid (vector + full text, RRF; the keyword leg weighs 5x when the vector leg is flat) retrieval for one workspace and the audiences a reply may cite (array[''everyone'']: what every member may read, by the passages'' readable_by_everyone flag while guild_facts.everyone_flags_follow is current, else by the stored everyone set''s keys). The vector leg searches the flagged and the other passages apart, each through its own partial HNSW index (the other ones exactly when few), and merges them by distance; runners_up rows past match_count continue the same order; SECURITY INVOKER with explicit tenant and audience predicates.';

-- A new function is executable by PUBLIC (and, on Supabase, by the API roles' default privileges):
-- revoked, and granted to the roles that search.
revoke all on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[], integer) from public, anon, authenticated;
grant execute on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[], integer) to brain_tenant, service_role;
