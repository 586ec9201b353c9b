-- Issue 14: a call by keys that holds the whole everyone set searches that set through its partial
-- index, and the rest of its keys exactly when they are few.
--
-- Every reply's allowed set holds what every member may read: whoever reads a reply is a member.
-- Filtered by keys, the HNSW scan of the main index yields candidates in distance order and tenant
-- and audience are checked after, so a staff channel's ask (the everyone set and a channel more)
-- walked about twice the rows of the unfiltered call (bench:retrieval --audience, >10,000 bucket).
--
-- Why the split returns the by-keys rows. Let P be the call's keys and E = {'workspace'} and the
-- channel keys of guild_facts.everyone_audiences. While everyone_flags_follow = everyone_audiences
-- (the check the 'everyone' path makes, 20261202160000) a passage is flagged readable_by_everyone
-- exactly when its audience is in E: every writer derives the flag from the stored facts under the
-- shared per-workspace lock, the everyone_flags job verified every passage under the exclusive one
-- before it recorded the set, and any change of the set clears that record. The function is STABLE,
-- so the facts it reads and the passages it searches are one snapshot. Then when E is a subset of P
-- the passages allowed by P are the disjoint union of (a) the flagged ones and (b) those whose
-- audience is in P \ E, and the nearest v_depth of the union are the nearest v_depth of (a)'s
-- nearest v_depth and (b)'s, merged in the function's tie order (distance, content_hash, id).
-- (a) is the 'everyone' call's own search (its partial index, the unfiltered call's settings);
-- (b) is counted through chunks_workspace_audience_live_idx and searched exactly when it holds at
-- most brain.everyone_split_max_rest_rows passages (3,000 by default, the filtered exact path's
-- bound: up to that size an exact search of a filtered set was measured cheaper than the index).
-- When it holds more, P is a large share of the tenant, the post-filter on the main index loses
-- little, and the call goes by keys.
-- When the flags lag, when P lacks part of E, or without guild facts: the by-keys path, unchanged.
-- The keyword leg, the final join (c.audience = any(P), a.audience = any(P)), the whole-call exact
-- path, the probe/full budget loop, RRF and the same-source decay are unchanged: even a flag that
-- were wrong could not make the call cite outside P.
--
-- match_artifacts is 20261202160000's definition restated whole (CREATE OR REPLACE needs it), with
-- the split folded in: same name, signature, SECURITY INVOKER, settings and grants.
-- "The flags follow the facts" was written out wherever it was asked (the guild-facts store, the
-- everyone_flags job and its sweep, match_artifacts): brain.everyone_flags_current now says it once.
-- pgvector's library first: this file creates a function with hnsw.* settings (issue 19).
select '[1]'::vector;

-- The passages' readable_by_everyone flags agree with the stored everyone set exactly when the
-- set the everyone_flags job last verified them against (everyone_flags_follow, NULL while they
-- lag) is that set (everyone_audiences; both kept sorted and without duplicates, 20261202160000).
create function brain.everyone_flags_current(p_follow text[], p_everyone text[])
returns boolean
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$ select p_follow is not null and p_everyone is not null and p_follow = p_everyone $$;

comment on function brain.everyone_flags_current(text[], text[]) is
  'Whether guild_facts.everyone_flags_follow (p_follow) says the passages'' everyone flags follow guild_facts.everyone_audiences (p_everyone): the one definition the facts store, the everyone_flags job and match_artifacts share (20261202170000).';
revoke all on function brain.everyone_flags_current(text[], text[]) from public, anon, authenticated;
grant execute on function brain.everyone_flags_current(text[], text[]) to brain_tenant, service_role;

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
  -- A call by keys that holds the everyone set: its flagged part by the partial index, and the
  -- passages of its other keys (v_rest_keys), when few, exactly (see the header).
  v_split boolean := false;
  v_rest_keys text[];
  v_rest_rows integer;
  v_rest_ids uuid[] := '{}';
  v_rest_distances double precision[] := '{}';
  v_rest_hashes text[] := '{}';
  v_exact_max integer := coalesce(nullif(current_setting('brain.exact_search_max_rows', true), '')::integer, 1000);
  -- An audience filter leaves about a quarter of the HNSW candidates standing (tenant and audience
  -- are checked after the index yields): the index path pays more per passage it keeps, and the
  -- exact path over the allowed rows stays cheaper, and exact, up to a larger count (bench:retrieval --audience).
  v_exact_max_filtered integer := coalesce(nullif(current_setting('brain.exact_search_max_filtered_rows', true), '')::integer, 3000);
  -- The most passages of the other keys searched exactly beside the partial index (see the header).
  -- 3,000, as v_exact_max_filtered: up to that size an exact search of a filtered set was measured
  -- cheaper than the index. A setting of its own, so that forcing the index path leaves it be.
  v_split_max_rest integer := coalesce(nullif(current_setting('brain.everyone_split_max_rest_rows', true), '')::integer, 3000);
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

    if not v_exact and p_audiences is not null and not v_everyone then
      select brain.everyone_flags_current(g.everyone_flags_follow, g.everyone_audiences),
             array['workspace'] || array(select k from unnest(g.everyone_audiences) k where k like 'channel:%')
        into v_flags_current, v_everyone_keys
      from public.guild_facts g
      where g.workspace_id = p_workspace_id;
      if coalesce(v_flags_current, false) and v_everyone_keys <@ p_audiences then
        v_rest_keys := array(select k from unnest(p_audiences) k where k <> all(v_everyone_keys));
        select count(*) into v_rest_rows
        from (
          select 1 from public.chunks c
          where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
            and c.audience = any(v_rest_keys)
          limit v_split_max_rest + 1
        ) s;
        v_split := v_rest_rows <= v_split_max_rest;
      end if;
    end if;

    if v_split and v_rest_rows > 0 then
      -- (b), exactly ("+ 0" hides the ordering from the HNSW index). None of these is flagged while
      -- the flags are current; "not readable_by_everyone" keeps the two parts disjoint regardless.
      select coalesce(array_agg(beyond_everyone.id order by beyond_everyone.distance, beyond_everyone.content_hash, beyond_everyone.id), '{}'),
             coalesce(array_agg(beyond_everyone.distance order by beyond_everyone.distance, beyond_everyone.content_hash, beyond_everyone.id), '{}'),
             coalesce(array_agg(beyond_everyone.content_hash order by beyond_everyone.distance, beyond_everyone.content_hash, beyond_everyone.id), '{}')
        into v_rest_ids, v_rest_distances, v_rest_hashes
      from (
        select c.id, c.content_hash, (c.embedding <=> query_embedding) + 0 as distance
        from public.chunks c
        where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
          and c.audience = any(v_rest_keys) and not c.readable_by_everyone
        order by (c.embedding <=> query_embedding) + 0, c.content_hash, c.id
        limit v_depth
      ) beyond_everyone;
    end if;

    if not v_exact then
      perform set_config('enable_sort', 'off', true);
      -- Filtered, a wider first batch (ef_search 130, not 100) instead of reading half as many
      -- candidates again: the relaxed-order scan then yields the nearest allowed rows nearly in
      -- order, and stops at v_depth. The function's SET clause restores ef_search on return.
      -- The 'everyone' call scans its own partial index, where the filter has already been applied,
      -- with the unfiltered call's settings.
      -- So does the split's flagged part (v_split).
      if p_audiences is not null and not v_everyone and not v_split then
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
          (select c.id, c.content_hash, c.embedding <=> query_embedding as distance
          from public.chunks c
          -- The 'everyone' call and the split's flagged part leave "embedding is not null" out
          -- (is_live implies it: chunks_check1), so the main index, whose predicate it is, cannot
          -- serve them and only the everyone-readable one can: when both are about as large, the
          -- planner costs them alike and may pick either.
          where c.workspace_id = p_workspace_id and (v_everyone or v_split or c.embedding is not null) and c.is_live
            and (p_audiences is null or ((v_everyone or v_split) and c.readable_by_everyone)
                 or (not v_everyone and not v_split and c.audience = any(p_audiences)))
          order by c.embedding <=> query_embedding
          limit v_depth)
          -- The split's exact part, merged by distance in the same tie order.
          union all
          select r.id, r.content_hash, r.distance
          from unnest(v_rest_ids, v_rest_hashes, v_rest_distances) as r(id, content_hash, distance)
          where v_split
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
  'Hybrid (vector + full text, RRF; the keyword leg weighs 5x when the vector leg is flat) retrieval for one workspace and the audiences a reply may cite (array[''everyone'']: what every member may read, by the passages'' readable_by_everyone flag while guild_facts.everyone_flags_follow is current, else by the stored everyone set''s keys; keys that hold that set while the flags are current search its partial index and the few other passages exactly); SECURITY INVOKER with explicit tenant and audience predicates.';

-- CREATE OR REPLACE keeps the ACL; restated so this file alone says who may call it.
revoke all on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[]) from public, anon, authenticated;
grant execute on function brain.match_artifacts(uuid, vector, text, integer, double precision, text[]) to brain_tenant, service_role;
