-- pgvector's library is loaded first: a role that is not a superuser (Supabase's postgres) may put
-- hnsw.* settings in a function's SET clause only once the library has defined them in the session.
select '[1]'::vector;

-- match_artifacts, tuned on the project's eval (eval/fastify-docs.jsonl: 50 questions over the
-- fastify documentation, local embedder, k = 5; `brain eval`, README "Retrieval quality"). The plan
-- is 20261130020100's; the fusion changes, measured on the merged tree with every other setting
-- fixed (hybrid recall@5 / MRR):
--
--   * source diversity: each further passage of the same source is scored at 0.7 times the one
--     before it. Without it, a long page whose passages all mention the question's words took
--     four or five of the five slots and the page that answers was pushed out:
--     hybrid 0.86 / 0.775 -> 0.96 / 0.797 (vector 0.90 -> 0.92, keyword 0.88 -> 0.94). Any
--     factor from 0.3 to 0.7 measured the same; 0.7 is the gentlest, so a source that is by far
--     the best still fills several slots.
--   * the keyword leg ranks by ts_rank(fts, query, 1) (term frequency scaled down by the
--     passage's length) instead of ts_rank_cd: cover density rewards common question words sitting
--     close together over the one passage naming the rare term asked about.
--   * the RRF constant is 20 (20261130040100 made both of these changes in place; this file
--     states the whole function again so that it can be read in one place).
--
-- Everything else (tenancy, plan, SET clauses, contract) is as 20261130020100 describes.
create or replace function public.match_artifacts(
  p_workspace_id uuid,
  query_embedding vector(1536),
  query_text text default null,
  match_count integer default 5,
  min_similarity double precision default 0.15
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
  v_exact_max integer := coalesce(nullif(current_setting('brain.exact_search_max_rows', true), '')::integer, 1000);
  v_exact boolean;
  v_nearest double precision;
  v_rrf_k constant double precision := 20;
  v_same_source_decay constant double precision := 0.7;
  v_tenant_rows integer;
  v_vector_ids uuid[] := '{}';
  v_keyword_ids uuid[] := '{}';
  v_lexeme text;
  v_tsquery tsquery;
begin
  if p_workspace_id is null then
    return;
  end if;
  if match_count is null or match_count < 1 or match_count > 50 then
    raise exception 'match_count must be between 1 and 50, got %', match_count using errcode = '22023';
  end if;
  -- Candidates per leg: deep enough that fusion can promote a passage ranked low by one leg.
  v_depth := greatest(match_count * 8, 40);

  if query_embedding is not null then
    select count(*) into v_tenant_rows
    from (
      select 1 from public.chunks c
      where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
      limit v_exact_max + 1
    ) s;
    v_exact := v_tenant_rows <= v_exact_max;

    if not v_exact then
      perform set_config('enable_sort', 'off', true);
      select coalesce(array_agg(x.id order by x.distance, x.id), '{}'), min(x.distance) into v_vector_ids, v_nearest
      from (
        select c.id, c.embedding <=> query_embedding as distance
        from public.chunks c
        where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
        order by c.embedding <=> query_embedding
        limit v_depth
      ) x;
      perform set_config('enable_sort', 'on', true);
      -- The iterative scan gives up after hnsw.max_scan_tuples, so the list can come back short
      -- although the workspace holds more passages than it asked for. When what it did find is
      -- relevant (passes min_similarity), the workspace has passages near the question that the
      -- scan ran out of budget to collect: search exactly. When nothing relevant was found, the
      -- question is about something this workspace never saved, the exact path would read all
      -- of its passages only to drop them below min_similarity, and the short list stands.
      v_exact := cardinality(v_vector_ids) < v_depth
                 and coalesce(1 - v_nearest >= coalesce(min_similarity, -1), false);
    end if;

    if v_exact then
      -- "+ 0" hides the ordering from the HNSW index: this is the exact path.
      select coalesce(array_agg(x.id order by x.distance, x.id), '{}') into v_vector_ids
      from (
        select c.id, (c.embedding <=> query_embedding) + 0 as distance
        from public.chunks c
        where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
        order by (c.embedding <=> query_embedding) + 0
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
      select coalesce(array_agg(x.id order by x.rank desc, x.id), '{}') into v_keyword_ids
      from (
        select c.id, ts_rank(c.fts, v_tsquery, 1) as rank
        from public.chunks c
        where c.workspace_id = p_workspace_id and c.is_live and c.fts @@ v_tsquery
        order by ts_rank(c.fts, v_tsquery, 1) desc, c.id
        limit v_depth
      ) x;
    end if;
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
           coalesce(1.0 / (v_rrf_k + v.rnk), 0) + coalesce(1.0 / (v_rrf_k + k.rnk), 0) as rrf
    from v full outer join k on k.id = v.id
  ),
  scored as (
    select f.*, c.artifact_id, c.heading, c.content,
           case when query_embedding is null then null
                else 1 - (c.embedding <=> query_embedding) end as sim
    from fused f
    -- `id = any(...)` of the candidates makes this a primary-key lookup. Joined on f.id alone
    -- (an expression over the full join), the planner could only filter a scan of every passage
    -- of the workspace (27,000 rows for the largest), and did.
    join public.chunks c on c.id = f.id and c.workspace_id = p_workspace_id
                        and c.id = any(v_vector_ids || v_keyword_ids)
  )
  -- score is the fused score after that discount, so the rows come back in score order.
  select t.id, t.artifact_id, t.title, t.url, t.heading, t.content,
         t.sim, t.v_rank, t.k_rank, t.rrf * power(v_same_source_decay, t.nth - 1), t.matched_by
  from (
    select s.id, s.artifact_id, a.title, a.url, s.heading, s.content,
           s.sim::double precision as sim, s.v_rank, s.k_rank, s.rrf::double precision as rrf,
           array_remove(array[
             case when s.v_rank is not null then 'vector' end,
             case when s.k_rank is not null then 'keyword' end
           ], null) as matched_by,
           row_number() over (partition by s.artifact_id order by s.rrf desc, s.sim desc nulls last, s.id) as nth
    from scored s
    join public.artifacts a on a.id = s.artifact_id and a.workspace_id = p_workspace_id
    where query_embedding is null or s.sim >= min_similarity
  ) t
  -- Each further passage of a source counts 70 % of the one before it: one long source no longer
  -- fills every slot, yet a source that is by far the best still gives several passages.
  order by t.rrf * power(v_same_source_decay, t.nth - 1) desc, t.sim desc nulls last, t.id
  limit match_count;
end
$$;

comment on function public.match_artifacts(uuid, vector, text, integer, double precision) is
  'Hybrid (vector + full text, RRF) retrieval for one workspace; SECURITY INVOKER with an explicit tenant predicate.';

revoke all on function public.match_artifacts(uuid, vector, text, integer, double precision) from public, anon, authenticated;
grant execute on function public.match_artifacts(uuid, vector, text, integer, double precision) to brain_tenant, service_role;
