-- match_artifacts, tuned by `npm run bench:retrieval` (README, "Retrieval at scale"). Same
-- signature, contract and fusion as 20261129000700_create_match_artifacts.sql; three changes:
--
--   * the exact path ends at 1,000 embedded passages (was 2,000). The exact path reads every
--     passage of the workspace, each vector from TOAST; at 200,000 passages, with the table larger
--     than shared_buffers, that cost more per passage than the benchmark's index path cost a whole
--     query for a workspace of 500-2,000 passages, at the same recall once the index is built
--     with ef_construction 128 (20261130020000). Below about 500 passages the index path walks
--     past too many other workspaces' passages and the exact path is faster. The best threshold
--     grows with the table (roughly with the square root of its rows): docs/SCALING.md.
--   * the index path falls back to the exact path when it returns fewer candidates than it asked
--     for and what it found is relevant: the relaxed-order iterative scan stops after
--     hnsw.max_scan_tuples (20,000 by default), and a workspace that is a small share of the
--     table would otherwise answer with fewer passages than it holds.
--   * the fused candidates are read back by primary key (see the lateral join below), not by a
--     scan of the whole workspace.
--
-- Tenancy: SECURITY INVOKER, so the caller's RLS applies, and an explicit
-- `workspace_id = p_workspace_id` predicate in every leg, so a caller that bypasses RLS
-- (service_role) still reads one workspace only, and the planner can use the B-tree.
--
-- Plan, chosen deliberately rather than left to the planner's estimate:
--   * a workspace with at most `brain.exact_search_max_rows` embedded passages (default 1000) is
--     searched exactly: B-tree on workspace_id, then a top-N sort. Filtered HNSW loses recall on
--     small tenants (ef_search candidates are found first, the tenant filter comes after), and
--     its iterative scan walks far past other workspaces' passages before it finds theirs.
--   * a larger workspace uses the partial HNSW index with a relaxed-order iterative scan, so the
--     tenant filter cannot starve the result, re-sorted exactly afterwards. Sorting is disabled
--     for that one statement: otherwise the planner may pick the B-tree path for a large tenant
--     and sort tens of thousands of vectors. A short result falls back to the exact path.
-- The SET clauses are scoped to the function: the caller's session is left as it was.
--
-- query_embedding NULL gives a keyword-only search (similarity is then NULL and min_similarity
-- is not applied); query_text NULL gives a vector-only search.
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
  v_rrf_k constant double precision := 60;
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
        select c.id, ts_rank_cd(c.fts, v_tsquery) as rank
        from public.chunks c
        where c.workspace_id = p_workspace_id and c.is_live and c.fts @@ v_tsquery
        order by ts_rank_cd(c.fts, v_tsquery) desc, c.id
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
  select s.id, s.artifact_id, a.title, a.url, s.heading, s.content,
         s.sim::double precision, s.v_rank, s.k_rank, s.rrf::double precision,
         array_remove(array[
           case when s.v_rank is not null then 'vector' end,
           case when s.k_rank is not null then 'keyword' end
         ], null)
  from scored s
  join public.artifacts a on a.id = s.artifact_id and a.workspace_id = p_workspace_id
  where query_embedding is null or s.sim >= min_similarity
  order by s.rrf desc, s.sim desc nulls last, s.id
  limit match_count;
end
$$;

comment on function public.match_artifacts(uuid, vector, text, integer, double precision) is
  'Hybrid (vector + full text, RRF) retrieval for one workspace; SECURITY INVOKER with an explicit tenant predicate.';

revoke all on function public.match_artifacts(uuid, vector, text, integer, double precision) from public, anon, authenticated;
grant execute on function public.match_artifacts(uuid, vector, text, integer, double precision) to brain_tenant, service_role;
