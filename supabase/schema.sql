-- The schema a fresh `brain migrate` leaves: tables, policies, grants and every function's live
-- definition (match_artifacts included). Generated, do not edit: `npm run db:schema` rewrites it
-- from a schema-only pg_dump of PostgreSQL 15, and packages/db/test/schema-snapshot.test.ts
-- fails in CI when it differs. supabase/migrations/*.sql stay what deploys apply.

--
-- PostgreSQL database dump
--

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: brain; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA brain;

--
-- Name: brain_private; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA brain_private;

--
-- Name: vector; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;

--
-- Name: EXTENSION vector; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION vector IS 'vector data type and ivfflat and hnsw access methods';

SET default_table_access_method = heap;

--
-- Name: jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.jobs (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    artifact_id uuid,
    task text NOT NULL,
    payload jsonb DEFAULT '{}'::jsonb NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    max_attempts integer DEFAULT 5 NOT NULL,
    run_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_by text,
    lease_expires_at timestamp with time zone,
    last_error_code text,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT jobs_check CHECK (((status = 'running'::text) = (lease_expires_at IS NOT NULL))),
    CONSTRAINT jobs_max_attempts_check CHECK ((max_attempts >= 1)),
    CONSTRAINT jobs_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'done'::text, 'failed'::text]))),
    CONSTRAINT jobs_task_check CHECK ((task ~ '^[a-z][a-z_]{1,40}$'::text))
);

ALTER TABLE ONLY public.jobs FORCE ROW LEVEL SECURITY;

--
-- Name: claim_jobs(text, integer, double precision, integer, uuid[]); Type: FUNCTION; Schema: brain; Owner: -
--

CREATE FUNCTION brain.claim_jobs(p_worker_id text, p_limit integer, p_lease_ms double precision, p_per_workspace integer, p_artifact_ids uuid[] DEFAULT NULL::uuid[]) RETURNS SETOF public.jobs
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
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

--
-- Name: FUNCTION claim_jobs(p_worker_id text, p_limit integer, p_lease_ms double precision, p_per_workspace integer, p_artifact_ids uuid[]); Type: COMMENT; Schema: brain; Owner: -
--

COMMENT ON FUNCTION brain.claim_jobs(p_worker_id text, p_limit integer, p_lease_ms double precision, p_per_workspace integer, p_artifact_ids uuid[]) IS 'Leases up to p_limit runnable jobs, round-robin across workspaces, at most p_per_workspace running per workspace.';

--
-- Name: everyone_flags_current(text[], text[]); Type: FUNCTION; Schema: brain; Owner: -
--

CREATE FUNCTION brain.everyone_flags_current(p_follow text[], p_everyone text[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select p_follow is not null and p_everyone is not null and p_follow = p_everyone $$;

--
-- Name: FUNCTION everyone_flags_current(p_follow text[], p_everyone text[]); Type: COMMENT; Schema: brain; Owner: -
--

COMMENT ON FUNCTION brain.everyone_flags_current(p_follow text[], p_everyone text[]) IS 'Whether guild_facts.everyone_flags_follow (p_follow) says the passages'' everyone flags follow guild_facts.everyone_audiences (p_everyone): the one definition the facts store, the everyone_flags job and match_artifacts share (20261202170000).';

--
-- Name: match_artifacts(uuid, public.vector, text, integer, double precision, text[], integer); Type: FUNCTION; Schema: brain; Owner: -
--

CREATE FUNCTION brain.match_artifacts(p_workspace_id uuid, query_embedding public.vector, query_text text DEFAULT NULL::text, match_count integer DEFAULT 5, min_similarity double precision DEFAULT 0.15, p_audiences text[] DEFAULT ARRAY['workspace'::text], runners_up integer DEFAULT 0) RETURNS TABLE(chunk_id uuid, artifact_id uuid, title text, url text, heading text, content text, similarity double precision, vector_rank integer, keyword_rank integer, score double precision, matched_by text[])
    LANGUAGE plpgsql STABLE
    SET search_path TO 'public', 'extensions', 'pg_temp'
    SET "hnsw.iterative_scan" TO 'relaxed_order'
    SET "hnsw.ef_search" TO '100'
    SET plan_cache_mode TO 'force_custom_plan'
    SET enable_sort TO 'on'
    SET jit TO 'off'
    AS $$
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

--
-- Name: FUNCTION match_artifacts(p_workspace_id uuid, query_embedding public.vector, query_text text, match_count integer, min_similarity double precision, p_audiences text[], runners_up integer); Type: COMMENT; Schema: brain; Owner: -
--

COMMENT ON FUNCTION brain.match_artifacts(p_workspace_id uuid, query_embedding public.vector, query_text text, match_count integer, min_similarity double precision, p_audiences text[], runners_up integer) IS 'Hybrid (vector + full text, RRF; the keyword leg weighs 5x when the vector leg is flat) retrieval for one workspace and the audiences a reply may cite (array[''everyone'']: what every member may read, by the passages'' readable_by_everyone flag while guild_facts.everyone_flags_follow is current, else by the stored everyone set''s keys). The vector leg searches the flagged and the other passages apart, each through its own partial HNSW index (the other ones exactly when few), and merges them by distance; runners_up rows past match_count continue the same order; SECURITY INVOKER with explicit tenant and audience predicates.';

--
-- Name: artifact_audience_to_chunks(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.artifact_audience_to_chunks() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  update public.chunks set audience = new.audience where artifact_id = new.id and audience <> new.audience;
  return null;
end
$$;

--
-- Name: chunk_takes_artifact_audience(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.chunk_takes_artifact_audience() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  select a.audience into new.audience from public.artifacts a where a.id = new.artifact_id;
  return new;
end
$$;

--
-- Name: chunk_takes_everyone_flag(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.chunk_takes_everyone_flag() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
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

--
-- Name: current_workspace_id(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.current_workspace_id() RETURNS uuid
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select nullif(current_setting('app.workspace_id', true), '')::uuid
$$;

--
-- Name: guild_facts_everyone_set(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.guild_facts_everyone_set() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
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

--
-- Name: guild_facts_queue_everyone_flags(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.guild_facts_queue_everyone_flags() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  insert into public.jobs (workspace_id, task, payload, max_attempts)
  values (new.workspace_id, 'everyone_flags', jsonb_build_object('reason', lower(tg_op)), 8)
  on conflict (workspace_id) where task = 'everyone_flags' and status = 'queued' do nothing;
  return null;
end
$$;

--
-- Name: notify_job_queued(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.notify_job_queued() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform pg_notify('brain_jobs', new.task);
  return null;
end
$$;

--
-- Name: refuse_claim_overwrite(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.refuse_claim_overwrite() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if old.claim_email is not null and new.claim_email is distinct from old.claim_email then
    raise exception 'workspace % is already claimed; claim_email cannot be overwritten', old.id
      using errcode = 'P0001', hint = 'Ask the current owner, or support, to transfer the workspace.';
  end if;
  return new;
end
$$;

--
-- Name: tally_query(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.tally_query() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO ''
    AS $_$
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
$_$;

--
-- Name: touch_updated_at(); Type: FUNCTION; Schema: brain_private; Owner: -
--

CREATE FUNCTION brain_private.touch_updated_at() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  new.updated_at := now();
  return new;
end
$$;

--
-- Name: artifact_sources; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.artifact_sources (
    artifact_id uuid NOT NULL,
    workspace_id uuid NOT NULL,
    mime_type text NOT NULL,
    body bytea,
    body_text text,
    byte_size integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT artifact_sources_byte_size_check CHECK (((byte_size >= 0) AND (byte_size <= ((20 * 1024) * 1024)))),
    CONSTRAINT artifact_sources_check CHECK (((body IS NULL) <> (body_text IS NULL)))
);

ALTER TABLE ONLY public.artifact_sources FORCE ROW LEVEL SECURITY;

--
-- Name: artifacts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.artifacts (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    kind text NOT NULL,
    source_key text NOT NULL,
    url text,
    title text,
    file_name text,
    mime_type text,
    author text,
    saved_by text,
    status text DEFAULT 'queued'::text NOT NULL,
    error_code text,
    error_message text,
    content_hash text,
    etag text,
    last_modified text,
    chunk_count integer DEFAULT 0 NOT NULL,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    fetched_at timestamp with time zone,
    indexed_at timestamp with time zone,
    forgotten_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    origin_guild_id text,
    origin_channel_id text,
    origin_parent_id text,
    origin_private_thread boolean DEFAULT false NOT NULL,
    origin_message_ids text[] DEFAULT '{}'::text[] NOT NULL,
    audience text DEFAULT 'workspace'::text NOT NULL,
    CONSTRAINT artifacts_audience_check CHECK (((audience = 'workspace'::text) OR (audience = 'unknown'::text) OR (audience ~ '^channel:[0-9]{1,20}$'::text))),
    CONSTRAINT artifacts_check CHECK (((status = 'failed'::text) = (error_code IS NOT NULL))),
    CONSTRAINT artifacts_kind_check CHECK ((kind = ANY (ARRAY['url'::text, 'file'::text, 'text'::text, 'discord_message'::text, 'discord_thread'::text]))),
    CONSTRAINT artifacts_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'indexing'::text, 'ready'::text, 'failed'::text])))
);

ALTER TABLE ONLY public.artifacts FORCE ROW LEVEL SECURITY;

--
-- Name: COLUMN artifacts.audience; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.artifacts.audience IS '''workspace'', ''channel:<id>'' (whose readers may be cited this source) or ''unknown''; see 20261201070100.';

--
-- Name: audience_changes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audience_changes (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    artifact_id uuid NOT NULL,
    changed_by text NOT NULL,
    from_audience text NOT NULL,
    to_audience text NOT NULL,
    changed_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT audience_changes_changed_by_check CHECK (((length(changed_by) >= 1) AND (length(changed_by) <= 254))),
    CONSTRAINT audience_changes_to_audience_check CHECK (((to_audience = 'workspace'::text) OR (to_audience ~ '^channel:[0-9]{1,20}$'::text)))
);

ALTER TABLE ONLY public.audience_changes FORCE ROW LEVEL SECURITY;

--
-- Name: auth_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auth_tokens (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    purpose text NOT NULL,
    email text NOT NULL,
    token_hash text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT auth_tokens_check CHECK ((expires_at > created_at)),
    CONSTRAINT auth_tokens_email_check CHECK (((POSITION(('@'::text) IN (email)) > 1) AND (length(email) <= 254) AND (email = lower(email)))),
    CONSTRAINT auth_tokens_purpose_check CHECK ((purpose = ANY (ARRAY['claim'::text, 'login'::text]))),
    CONSTRAINT auth_tokens_token_hash_check CHECK ((token_hash ~ '^[0-9a-f]{64}$'::text))
);

ALTER TABLE ONLY public.auth_tokens FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE auth_tokens; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.auth_tokens IS 'Magic-link tokens, stored as SHA-256 only. Service-only in practice: a token is looked up by its hash before its workspace is known.';

--
-- Name: auto_answer_votes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auto_answer_votes (
    auto_answer_id uuid NOT NULL,
    workspace_id uuid NOT NULL,
    user_id text NOT NULL,
    vote text NOT NULL,
    voted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT auto_answer_votes_user_id_check CHECK ((user_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT auto_answer_votes_vote_check CHECK ((vote = ANY (ARRAY['up'::text, 'down'::text])))
);

ALTER TABLE ONLY public.auto_answer_votes FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE auto_answer_votes; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.auto_answer_votes IS '👍/👎 under an auto-answer: one per person, the latest kept.';

--
-- Name: auto_answers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auto_answers (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    channel_id text NOT NULL,
    thread_id text NOT NULL,
    message_id text NOT NULL,
    outcome text DEFAULT 'pending'::text NOT NULL,
    reason text,
    query_id uuid,
    reply_message_id text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    silenced_at timestamp with time zone,
    silenced_by text,
    CONSTRAINT auto_answers_channel_id_check CHECK ((channel_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT auto_answers_message_id_check CHECK ((message_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT auto_answers_outcome_check CHECK ((outcome = ANY (ARRAY['pending'::text, 'answered'::text, 'uncovered'::text, 'not_entitled'::text, 'failed'::text, 'forbidden'::text, 'rate_limited'::text]))),
    CONSTRAINT auto_answers_silenced_by_check CHECK ((silenced_by ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT auto_answers_thread_id_check CHECK ((thread_id ~ '^[0-9]{1,20}$'::text))
);

ALTER TABLE ONLY public.auto_answers FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE auto_answers; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.auto_answers IS 'Auto-answers: one per thread, claimed before answering; how each ended and why.';

--
-- Name: autoanswer_channels; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.autoanswer_channels (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    guild_id text NOT NULL,
    channel_id text NOT NULL,
    channel_name text,
    when_uncovered text DEFAULT 'reaction'::text NOT NULL,
    staff_role_id text,
    enabled_by text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    max_per_hour integer DEFAULT 20 NOT NULL,
    CONSTRAINT autoanswer_channels_channel_id_check CHECK ((channel_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT autoanswer_channels_enabled_by_check CHECK (((length(enabled_by) >= 1) AND (length(enabled_by) <= 254))),
    CONSTRAINT autoanswer_channels_guild_id_check CHECK ((guild_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT autoanswer_channels_max_per_hour_check CHECK (((max_per_hour >= 1) AND (max_per_hour <= 500))),
    CONSTRAINT autoanswer_channels_staff_role_id_check CHECK ((staff_role_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT autoanswer_channels_when_uncovered_check CHECK ((when_uncovered = ANY (ARRAY['reaction'::text, 'line'::text])))
);

ALTER TABLE ONLY public.autoanswer_channels FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE autoanswer_channels; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.autoanswer_channels IS '/autoanswer: channels whose new posts and threads get one grounded reply, and what to do when nothing covers them.';

--
-- Name: chunks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.chunks (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    artifact_id uuid NOT NULL,
    ordinal integer NOT NULL,
    heading text,
    content text NOT NULL,
    content_hash text NOT NULL,
    token_count integer DEFAULT 0 NOT NULL,
    embedding public.vector(1536),
    embedding_model text,
    is_live boolean DEFAULT false NOT NULL,
    fts tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, ((COALESCE(heading, ''::text) || ' '::text) || content))) STORED,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    message_spans jsonb,
    audience text DEFAULT 'workspace'::text NOT NULL,
    readable_by_everyone boolean DEFAULT false NOT NULL,
    CONSTRAINT chunks_check CHECK (((embedding IS NULL) = (embedding_model IS NULL))),
    CONSTRAINT chunks_check1 CHECK (((NOT is_live) OR (embedding IS NOT NULL))),
    CONSTRAINT chunks_message_spans_is_array CHECK (((message_spans IS NULL) OR (jsonb_typeof(message_spans) = 'array'::text))),
    CONSTRAINT chunks_ordinal_check CHECK ((ordinal >= 0))
);

ALTER TABLE ONLY public.chunks FORCE ROW LEVEL SECURITY;

--
-- Name: COLUMN chunks.embedding; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.chunks.embedding IS 'NULL until the worker embeds the passage; NULL rows are outside the HNSW index.';

--
-- Name: COLUMN chunks.message_spans; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.chunks.message_spans IS 'For conversation sources (discord_thread): which message each range of content comes from, with its jump link.';

--
-- Name: COLUMN chunks.readable_by_everyone; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.chunks.readable_by_everyone IS 'True when every member of the server may read this passage: audience ''workspace'', or a channel in guild_facts.everyone_audiences. Kept by triggers; see 20261202140000.';

--
-- Name: dashboard_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dashboard_sessions (
    token_hash text NOT NULL,
    workspace_id uuid NOT NULL,
    email text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT dashboard_sessions_check CHECK ((expires_at > created_at)),
    CONSTRAINT dashboard_sessions_email_check CHECK (((POSITION(('@'::text) IN (email)) > 1) AND (length(email) <= 254) AND (email = lower(email)))),
    CONSTRAINT dashboard_sessions_token_hash_check CHECK ((token_hash ~ '^[0-9a-f]{64}$'::text))
);

ALTER TABLE ONLY public.dashboard_sessions FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE dashboard_sessions; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.dashboard_sessions IS 'Dashboard sessions, stored as SHA-256 of the cookie only. Service-only: a session is looked up by its hash before its workspace is known.';

--
-- Name: follow_ups; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.follow_ups (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    channel_id text NOT NULL,
    thread_id text NOT NULL,
    message_id text NOT NULL,
    asked_by text NOT NULL,
    original text NOT NULL,
    rewritten text,
    rewritten_by text,
    outcome text DEFAULT 'pending'::text NOT NULL,
    reason text,
    query_id uuid,
    reply_message_id text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT follow_ups_asked_by_check CHECK ((asked_by ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT follow_ups_channel_id_check CHECK ((channel_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT follow_ups_message_id_check CHECK ((message_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT follow_ups_original_check CHECK ((length(original) <= 6000)),
    CONSTRAINT follow_ups_outcome_check CHECK ((outcome = ANY (ARRAY['pending'::text, 'answered'::text, 'uncovered'::text, 'not_entitled'::text, 'forbidden'::text, 'failed'::text, 'rate_limited'::text]))),
    CONSTRAINT follow_ups_rewritten_by_check CHECK ((rewritten_by = ANY (ARRAY['llm'::text, 'rule'::text, 'unchanged'::text]))),
    CONSTRAINT follow_ups_rewritten_check CHECK ((length(rewritten) <= 6000)),
    CONSTRAINT follow_ups_thread_id_check CHECK ((thread_id ~ '^[0-9]{1,20}$'::text))
);

ALTER TABLE ONLY public.follow_ups FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE follow_ups; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.follow_ups IS 'Follow-up questions in threads the bot answered: what was written, the stand-alone rewrite, how it ended.';

--
-- Name: gateway_leases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gateway_leases (
    name text NOT NULL,
    holder text NOT NULL,
    acquired_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT gateway_leases_holder_check CHECK (((length(holder) >= 1) AND (length(holder) <= 200))),
    CONSTRAINT gateway_leases_name_check CHECK (((length(name) >= 1) AND (length(name) <= 64)))
);

ALTER TABLE ONLY public.gateway_leases FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE gateway_leases; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.gateway_leases IS 'Service-only: the process holding the Discord Gateway connection, until expires_at.';

--
-- Name: guild_facts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.guild_facts (
    workspace_id uuid NOT NULL,
    guild_id text NOT NULL,
    owner_id text NOT NULL,
    roles jsonb NOT NULL,
    channels jsonb NOT NULL,
    fetched_at timestamp with time zone NOT NULL,
    everyone_audiences text[] DEFAULT '{}'::text[] NOT NULL,
    everyone_flags_follow text[],
    CONSTRAINT guild_facts_channels_check CHECK ((jsonb_typeof(channels) = 'array'::text)),
    CONSTRAINT guild_facts_everyone_audiences_check CHECK ((array_position(everyone_audiences, NULL::text) IS NULL)),
    CONSTRAINT guild_facts_everyone_flags_follow_check CHECK ((array_position(everyone_flags_follow, NULL::text) IS NULL)),
    CONSTRAINT guild_facts_roles_check CHECK ((jsonb_typeof(roles) = 'array'::text))
);

ALTER TABLE ONLY public.guild_facts FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE guild_facts; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.guild_facts IS 'A guild''s roles, channels, overwrites and owner as last read with the bot token; refreshed by every sync pass and by an answer that finds them older than 60 s.';

--
-- Name: COLUMN guild_facts.everyone_audiences; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.guild_facts.everyone_audiences IS 'The channel audience keys (''channel:<id>'') every member of the guild may read, decided from these facts; chunks.readable_by_everyone follows it (20261202140000).';

--
-- Name: COLUMN guild_facts.everyone_flags_follow; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.guild_facts.everyone_flags_follow IS 'The everyone set (everyone_audiences) that every passage''s readable_by_everyone was last verified against by the everyone_flags job; NULL while the flags lag the facts. Cleared by any change of everyone_audiences (20261202160000).';

--
-- Name: interactions_seen; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.interactions_seen (
    interaction_id text NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT interactions_seen_interaction_id_check CHECK ((interaction_id ~ '^[0-9]{1,20}$'::text))
);

ALTER TABLE ONLY public.interactions_seen FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE interactions_seen; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.interactions_seen IS 'Service-only: no tenant can read or write it.';

--
-- Name: job_claim_turns; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_claim_turns (
    workspace_id uuid NOT NULL,
    last_claimed_at timestamp with time zone NOT NULL
);

ALTER TABLE ONLY public.job_claim_turns FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE job_claim_turns; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.job_claim_turns IS 'Round-robin state of the job queue. Written by claim_jobs as service_role; tenants may read their own.';

--
-- Name: mcp_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.mcp_tokens (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    name text NOT NULL,
    token_hash text NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_used_at timestamp with time zone,
    revoked_at timestamp with time zone,
    audience_scope text DEFAULT 'public'::text NOT NULL,
    CONSTRAINT mcp_tokens_audience_scope_check CHECK (((audience_scope = 'public'::text) OR (audience_scope ~ '^channel:[0-9]{1,20}$'::text))),
    CONSTRAINT mcp_tokens_created_by_check CHECK (((length(created_by) >= 1) AND (length(created_by) <= 254))),
    CONSTRAINT mcp_tokens_name_check CHECK ((((length(name) >= 1) AND (length(name) <= 60)) AND (name = btrim(name)))),
    CONSTRAINT mcp_tokens_token_hash_check CHECK ((token_hash ~ '^[0-9a-f]{64}$'::text))
);

ALTER TABLE ONLY public.mcp_tokens FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE mcp_tokens; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.mcp_tokens IS 'MCP bearer tokens, stored as SHA-256 only; revoked tokens are kept (revoked_at) so the list shows what was cut off.';

--
-- Name: queries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queries (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    question text NOT NULL,
    answer text,
    grounded boolean NOT NULL,
    answerer text NOT NULL,
    model text,
    embedding_model text,
    retrieved jsonb DEFAULT '[]'::jsonb NOT NULL,
    cited jsonb DEFAULT '[]'::jsonb NOT NULL,
    latency_ms jsonb DEFAULT '{}'::jsonb NOT NULL,
    trimmed boolean DEFAULT false NOT NULL,
    surface text DEFAULT 'cli'::text NOT NULL,
    asked_by text,
    interaction_id text,
    feedback text,
    feedback_by text,
    feedback_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    error_code text,
    latency_embed_ms double precision GENERATED ALWAYS AS (
CASE
    WHEN (jsonb_typeof((latency_ms -> 'embed'::text)) = 'number'::text) THEN ((latency_ms ->> 'embed'::text))::double precision
    ELSE NULL::double precision
END) STORED,
    latency_search_ms double precision GENERATED ALWAYS AS (
CASE
    WHEN (jsonb_typeof((latency_ms -> 'search'::text)) = 'number'::text) THEN ((latency_ms ->> 'search'::text))::double precision
    ELSE NULL::double precision
END) STORED,
    latency_generate_ms double precision GENERATED ALWAYS AS (
CASE
    WHEN (jsonb_typeof((latency_ms -> 'generate'::text)) = 'number'::text) THEN ((latency_ms ->> 'generate'::text))::double precision
    ELSE NULL::double precision
END) STORED,
    latency_total_ms double precision GENERATED ALWAYS AS (
CASE
    WHEN (jsonb_typeof((latency_ms -> 'total'::text)) = 'number'::text) THEN ((latency_ms ->> 'total'::text))::double precision
    ELSE NULL::double precision
END) STORED,
    audience jsonb,
    private_hint_shown boolean,
    CONSTRAINT queries_answerer_check CHECK ((answerer = ANY (ARRAY['extractive'::text, 'llm'::text, 'none'::text]))),
    CONSTRAINT queries_audience_check CHECK (((audience IS NULL) OR (audience = '{"kind": "everything"}'::jsonb) OR (((audience ->> 'kind'::text) = 'keys'::text) AND (jsonb_typeof((audience -> 'keys'::text)) = 'array'::text)))),
    CONSTRAINT queries_error_code_check CHECK (((error_code IS NULL) OR (error_code ~ '^[A-Z][A-Z0-9_]{1,63}$'::text))),
    CONSTRAINT queries_feedback_check CHECK ((feedback = ANY (ARRAY['up'::text, 'down'::text]))),
    CONSTRAINT queries_surface_check CHECK ((surface = ANY (ARRAY['discord'::text, 'playground'::text, 'cli'::text, 'mcp'::text, 'dashboard'::text, 'eval'::text, 'auto'::text, 'follow_up'::text])))
);

ALTER TABLE ONLY public.queries FORCE ROW LEVEL SECURITY;

--
-- Name: COLUMN queries.error_code; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.queries.error_code IS 'AppError code of a failed ask; NULL when an answer (grounded or not) was returned.';

--
-- Name: COLUMN queries.audience; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.queries.audience IS 'The audience filter the answer was allowed to cite: {"kind":"everything"} or {"kind":"keys","keys":[...]}; NULL before 20261201120000.';

--
-- Name: COLUMN queries.private_hint_shown; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.queries.private_hint_shown IS 'True when the reply said a private answer may be available; NULL before 20261201190100.';

--
-- Name: query_day_stats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.query_day_stats (
    workspace_id uuid NOT NULL,
    day date NOT NULL,
    questions integer DEFAULT 0 NOT NULL,
    unanswered integer DEFAULT 0 NOT NULL,
    up integer DEFAULT 0 NOT NULL,
    down integer DEFAULT 0 NOT NULL,
    retrieved_bins integer[] DEFAULT array_fill(0, ARRAY[20]) NOT NULL,
    cited_bins integer[] DEFAULT array_fill(0, ARRAY[20]) NOT NULL,
    CONSTRAINT query_day_stats_check CHECK (((cardinality(retrieved_bins) = 20) AND (cardinality(cited_bins) = 20)))
);

ALTER TABLE ONLY public.query_day_stats FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE query_day_stats; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.query_day_stats IS 'Per workspace and UTC day: questions, unanswered, votes, similarity bins. Kept by brain_private.tally_query().';

--
-- Name: query_source_day_stats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.query_source_day_stats (
    workspace_id uuid NOT NULL,
    day date NOT NULL,
    artifact_id uuid NOT NULL,
    retrieved_in integer DEFAULT 0 NOT NULL,
    cited_in integer DEFAULT 0 NOT NULL
);

ALTER TABLE ONLY public.query_source_day_stats FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE query_source_day_stats; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.query_source_day_stats IS 'Per workspace, UTC day and source: questions retrieving it, answers citing it. Kept by brain_private.tally_query().';

--
-- Name: rate_limit_counters; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rate_limit_counters (
    bucket text NOT NULL,
    window_start timestamp with time zone NOT NULL,
    hits integer NOT NULL,
    previous_hits integer DEFAULT 0 NOT NULL,
    CONSTRAINT rate_limit_counters_bucket_check CHECK (((length(bucket) >= 1) AND (length(bucket) <= 200))),
    CONSTRAINT rate_limit_counters_hits_check CHECK ((hits >= 0)),
    CONSTRAINT rate_limit_counters_previous_hits_check CHECK ((previous_hits >= 0))
);

ALTER TABLE ONLY public.rate_limit_counters FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE rate_limit_counters; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.rate_limit_counters IS 'Service-only: no tenant can read or write it.';

--
-- Name: COLUMN rate_limit_counters.previous_hits; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.rate_limit_counters.previous_hits IS 'Admitted hits of the window before window_start.';

--
-- Name: solved_threads; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.solved_threads (
    workspace_id uuid NOT NULL,
    thread_id text NOT NULL,
    how text NOT NULL,
    marked_by text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT solved_threads_how_check CHECK ((how = ANY (ARRAY['tag'::text, 'reaction'::text, 'command'::text]))),
    CONSTRAINT solved_threads_marked_by_check CHECK (((length(marked_by) >= 1) AND (length(marked_by) <= 254))),
    CONSTRAINT solved_threads_thread_id_check CHECK ((thread_id ~ '^[0-9]{1,20}$'::text))
);

ALTER TABLE ONLY public.solved_threads FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE solved_threads; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.solved_threads IS 'Threads marked solved, and how: their sources stay solved across refreshes.';

--
-- Name: stripe_events_seen; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stripe_events_seen (
    event_id text NOT NULL,
    type text NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.stripe_events_seen FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE stripe_events_seen; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.stripe_events_seen IS 'Service-only: no tenant can read or write it.';

--
-- Name: sync_forgotten_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_forgotten_keys (
    workspace_id uuid NOT NULL,
    source_key text NOT NULL,
    forgotten_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.sync_forgotten_keys FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE sync_forgotten_keys; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.sync_forgotten_keys IS '/sync: keys of forgotten sources of removed channels, so re-adding the channel keeps them forgotten.';

--
-- Name: synced_channels; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.synced_channels (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    guild_id text NOT NULL,
    channel_id text NOT NULL,
    channel_name text,
    kind text NOT NULL,
    pins_only boolean DEFAULT false NOT NULL,
    state text DEFAULT 'backfilling'::text NOT NULL,
    pause_code text,
    pause_reason text,
    checkpoint jsonb DEFAULT '{}'::jsonb NOT NULL,
    message_count integer DEFAULT 0 NOT NULL,
    source_count integer DEFAULT 0 NOT NULL,
    last_synced_at timestamp with time zone,
    added_by text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT synced_channels_added_by_check CHECK (((length(added_by) >= 1) AND (length(added_by) <= 254))),
    CONSTRAINT synced_channels_channel_id_check CHECK ((channel_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT synced_channels_check CHECK (((state = 'paused'::text) = (pause_reason IS NOT NULL))),
    CONSTRAINT synced_channels_checkpoint_check CHECK ((jsonb_typeof(checkpoint) = 'object'::text)),
    CONSTRAINT synced_channels_guild_id_check CHECK ((guild_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT synced_channels_kind_check CHECK ((kind = ANY (ARRAY['text'::text, 'announcement'::text, 'forum'::text]))),
    CONSTRAINT synced_channels_message_count_check CHECK ((message_count >= 0)),
    CONSTRAINT synced_channels_source_count_check CHECK ((source_count >= 0)),
    CONSTRAINT synced_channels_state_check CHECK ((state = ANY (ARRAY['backfilling'::text, 'current'::text, 'paused'::text])))
);

ALTER TABLE ONLY public.synced_channels FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE synced_channels; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.synced_channels IS '/sync: a channel kept in the brain, its state (backfilling, current, paused with a reason), checkpoint and counts.';

--
-- Name: synced_sources; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.synced_sources (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    workspace_id uuid NOT NULL,
    synced_channel_id uuid NOT NULL,
    source_key text NOT NULL,
    unit text NOT NULL,
    discord_id text NOT NULL,
    day date,
    artifact_id uuid,
    message_ids text[] DEFAULT '{}'::text[] NOT NULL,
    fingerprint text,
    forgotten boolean DEFAULT false NOT NULL,
    gone boolean DEFAULT false NOT NULL,
    last_run text,
    synced_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT synced_sources_unit_check CHECK ((unit = ANY (ARRAY['thread'::text, 'post'::text, 'pin'::text, 'day'::text])))
);

ALTER TABLE ONLY public.synced_sources FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE synced_sources; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.synced_sources IS '/sync bookkeeping: each synced source, the messages it holds and their fingerprint; forgotten ones stay forgotten.';

--
-- Name: thread_members; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.thread_members (
    workspace_id uuid NOT NULL,
    thread_id text NOT NULL,
    user_id text NOT NULL,
    synced_at timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE ONLY public.thread_members FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE thread_members; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.thread_members IS 'Members of private threads, read by /sync; a private answer may cite a private thread''s source only to its members.';

--
-- Name: usage_counters; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.usage_counters (
    workspace_id uuid NOT NULL,
    kind text NOT NULL,
    used integer DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT usage_counters_kind_check CHECK ((kind = ANY (ARRAY['save'::text, 'ask'::text]))),
    CONSTRAINT usage_counters_used_check CHECK ((used >= 0))
);

ALTER TABLE ONLY public.usage_counters FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE usage_counters; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.usage_counters IS 'Metered use per workspace (free allowance). Written by billing as service_role; tenants may read their own.';

--
-- Name: workspaces; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.workspaces (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    guild_id text,
    slug text NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    installed_by text,
    installed_at timestamp with time zone,
    claim_email text,
    claimed_at timestamp with time zone,
    plan_status text DEFAULT 'none'::text NOT NULL,
    stripe_customer_id text,
    stripe_subscription_id text,
    plan_period_end timestamp with time zone,
    past_due_since timestamp with time zone,
    match_count integer DEFAULT 5 NOT NULL,
    min_similarity double precision DEFAULT 0.15 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    plan_cancel_at_period_end boolean DEFAULT false NOT NULL,
    plan_synced_at timestamp with time zone,
    CONSTRAINT workspaces_check CHECK (((claim_email IS NULL) = (claimed_at IS NULL))),
    CONSTRAINT workspaces_claim_email_check CHECK (((claim_email IS NULL) OR (POSITION(('@'::text) IN (claim_email)) > 1))),
    CONSTRAINT workspaces_guild_id_check CHECK ((guild_id ~ '^[0-9]{1,20}$'::text)),
    CONSTRAINT workspaces_match_count_check CHECK (((match_count >= 1) AND (match_count <= 20))),
    CONSTRAINT workspaces_min_similarity_check CHECK (((min_similarity >= (0)::double precision) AND (min_similarity <= (1)::double precision))),
    CONSTRAINT workspaces_plan_status_check CHECK ((plan_status = ANY (ARRAY['none'::text, 'trialing'::text, 'active'::text, 'past_due'::text, 'canceled'::text]))),
    CONSTRAINT workspaces_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'::text))
);

ALTER TABLE ONLY public.workspaces FORCE ROW LEVEL SECURITY;

--
-- Name: TABLE workspaces; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.workspaces IS 'A tenant: one Discord server, claimed by one operator email, with its plan.';

--
-- Name: artifact_sources artifact_sources_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.artifact_sources
    ADD CONSTRAINT artifact_sources_pkey PRIMARY KEY (artifact_id);

--
-- Name: artifacts artifacts_id_workspace_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.artifacts
    ADD CONSTRAINT artifacts_id_workspace_id_key UNIQUE (id, workspace_id);

--
-- Name: artifacts artifacts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.artifacts
    ADD CONSTRAINT artifacts_pkey PRIMARY KEY (id);

--
-- Name: artifacts artifacts_workspace_id_source_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.artifacts
    ADD CONSTRAINT artifacts_workspace_id_source_key_key UNIQUE (workspace_id, source_key);

--
-- Name: audience_changes audience_changes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audience_changes
    ADD CONSTRAINT audience_changes_pkey PRIMARY KEY (id);

--
-- Name: auth_tokens auth_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_tokens
    ADD CONSTRAINT auth_tokens_pkey PRIMARY KEY (id);

--
-- Name: auth_tokens auth_tokens_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_tokens
    ADD CONSTRAINT auth_tokens_token_hash_key UNIQUE (token_hash);

--
-- Name: auto_answer_votes auto_answer_votes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auto_answer_votes
    ADD CONSTRAINT auto_answer_votes_pkey PRIMARY KEY (auto_answer_id, user_id);

--
-- Name: auto_answers auto_answers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auto_answers
    ADD CONSTRAINT auto_answers_pkey PRIMARY KEY (id);

--
-- Name: auto_answers auto_answers_workspace_id_thread_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auto_answers
    ADD CONSTRAINT auto_answers_workspace_id_thread_id_key UNIQUE (workspace_id, thread_id);

--
-- Name: autoanswer_channels autoanswer_channels_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.autoanswer_channels
    ADD CONSTRAINT autoanswer_channels_pkey PRIMARY KEY (id);

--
-- Name: autoanswer_channels autoanswer_channels_workspace_id_channel_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.autoanswer_channels
    ADD CONSTRAINT autoanswer_channels_workspace_id_channel_id_key UNIQUE (workspace_id, channel_id);

--
-- Name: chunks chunks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_pkey PRIMARY KEY (id);

--
-- Name: dashboard_sessions dashboard_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dashboard_sessions
    ADD CONSTRAINT dashboard_sessions_pkey PRIMARY KEY (token_hash);

--
-- Name: follow_ups follow_ups_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_pkey PRIMARY KEY (id);

--
-- Name: follow_ups follow_ups_workspace_id_message_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_workspace_id_message_id_key UNIQUE (workspace_id, message_id);

--
-- Name: gateway_leases gateway_leases_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gateway_leases
    ADD CONSTRAINT gateway_leases_pkey PRIMARY KEY (name);

--
-- Name: guild_facts guild_facts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.guild_facts
    ADD CONSTRAINT guild_facts_pkey PRIMARY KEY (workspace_id);

--
-- Name: interactions_seen interactions_seen_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.interactions_seen
    ADD CONSTRAINT interactions_seen_pkey PRIMARY KEY (interaction_id);

--
-- Name: job_claim_turns job_claim_turns_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_claim_turns
    ADD CONSTRAINT job_claim_turns_pkey PRIMARY KEY (workspace_id);

--
-- Name: jobs jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (id);

--
-- Name: mcp_tokens mcp_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mcp_tokens
    ADD CONSTRAINT mcp_tokens_pkey PRIMARY KEY (id);

--
-- Name: mcp_tokens mcp_tokens_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mcp_tokens
    ADD CONSTRAINT mcp_tokens_token_hash_key UNIQUE (token_hash);

--
-- Name: queries queries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queries
    ADD CONSTRAINT queries_pkey PRIMARY KEY (id);

--
-- Name: query_day_stats query_day_stats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.query_day_stats
    ADD CONSTRAINT query_day_stats_pkey PRIMARY KEY (workspace_id, day);

--
-- Name: query_source_day_stats query_source_day_stats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.query_source_day_stats
    ADD CONSTRAINT query_source_day_stats_pkey PRIMARY KEY (workspace_id, day, artifact_id);

--
-- Name: rate_limit_counters rate_limit_counters_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_limit_counters
    ADD CONSTRAINT rate_limit_counters_pkey PRIMARY KEY (bucket);

--
-- Name: solved_threads solved_threads_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.solved_threads
    ADD CONSTRAINT solved_threads_pkey PRIMARY KEY (workspace_id, thread_id);

--
-- Name: stripe_events_seen stripe_events_seen_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stripe_events_seen
    ADD CONSTRAINT stripe_events_seen_pkey PRIMARY KEY (event_id);

--
-- Name: sync_forgotten_keys sync_forgotten_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_forgotten_keys
    ADD CONSTRAINT sync_forgotten_keys_pkey PRIMARY KEY (workspace_id, source_key);

--
-- Name: synced_channels synced_channels_id_workspace_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.synced_channels
    ADD CONSTRAINT synced_channels_id_workspace_id_key UNIQUE (id, workspace_id);

--
-- Name: synced_channels synced_channels_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.synced_channels
    ADD CONSTRAINT synced_channels_pkey PRIMARY KEY (id);

--
-- Name: synced_channels synced_channels_workspace_id_channel_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.synced_channels
    ADD CONSTRAINT synced_channels_workspace_id_channel_id_key UNIQUE (workspace_id, channel_id);

--
-- Name: synced_sources synced_sources_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.synced_sources
    ADD CONSTRAINT synced_sources_pkey PRIMARY KEY (id);

--
-- Name: synced_sources synced_sources_workspace_id_source_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.synced_sources
    ADD CONSTRAINT synced_sources_workspace_id_source_key_key UNIQUE (workspace_id, source_key);

--
-- Name: thread_members thread_members_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.thread_members
    ADD CONSTRAINT thread_members_pkey PRIMARY KEY (workspace_id, thread_id, user_id);

--
-- Name: usage_counters usage_counters_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.usage_counters
    ADD CONSTRAINT usage_counters_pkey PRIMARY KEY (workspace_id, kind);

--
-- Name: workspaces workspaces_guild_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workspaces
    ADD CONSTRAINT workspaces_guild_id_key UNIQUE (guild_id);

--
-- Name: workspaces workspaces_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workspaces
    ADD CONSTRAINT workspaces_pkey PRIMARY KEY (id);

--
-- Name: workspaces workspaces_slug_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workspaces
    ADD CONSTRAINT workspaces_slug_key UNIQUE (slug);

--
-- Name: workspaces workspaces_stripe_customer_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workspaces
    ADD CONSTRAINT workspaces_stripe_customer_id_key UNIQUE (stripe_customer_id);

--
-- Name: workspaces workspaces_stripe_subscription_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workspaces
    ADD CONSTRAINT workspaces_stripe_subscription_id_key UNIQUE (stripe_subscription_id);

--
-- Name: artifact_sources_workspace_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX artifact_sources_workspace_id_idx ON public.artifact_sources USING btree (workspace_id);

--
-- Name: artifacts_workspace_audience_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX artifacts_workspace_audience_idx ON public.artifacts USING btree (workspace_id, audience);

--
-- Name: artifacts_workspace_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX artifacts_workspace_created_idx ON public.artifacts USING btree (workspace_id, created_at DESC);

--
-- Name: audience_changes_artifact_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audience_changes_artifact_idx ON public.audience_changes USING btree (workspace_id, artifact_id, changed_at DESC);

--
-- Name: auth_tokens_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auth_tokens_expires_idx ON public.auth_tokens USING btree (expires_at);

--
-- Name: auth_tokens_workspace_purpose_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auth_tokens_workspace_purpose_idx ON public.auth_tokens USING btree (workspace_id, purpose, created_at DESC);

--
-- Name: auto_answer_votes_workspace; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auto_answer_votes_workspace ON public.auto_answer_votes USING btree (workspace_id);

--
-- Name: auto_answers_channel_recent; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auto_answers_channel_recent ON public.auto_answers USING btree (workspace_id, channel_id, created_at DESC);

--
-- Name: chunks_artifact_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_artifact_id_idx ON public.chunks USING btree (artifact_id);

--
-- Name: chunks_embedding_everyone_hnsw_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_embedding_everyone_hnsw_idx ON public.chunks USING hnsw (embedding public.vector_cosine_ops) WITH (m='16', ef_construction='128') WHERE ((embedding IS NOT NULL) AND readable_by_everyone);

--
-- Name: chunks_embedding_restricted_hnsw_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_embedding_restricted_hnsw_idx ON public.chunks USING hnsw (embedding public.vector_cosine_ops) WITH (m='16', ef_construction='128') WHERE ((embedding IS NOT NULL) AND (NOT readable_by_everyone));

--
-- Name: chunks_fts_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_fts_idx ON public.chunks USING gin (fts);

--
-- Name: chunks_workspace_audience_live_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_workspace_audience_live_idx ON public.chunks USING btree (workspace_id, audience) WHERE ((embedding IS NOT NULL) AND is_live);

--
-- Name: chunks_workspace_everyone_live_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_workspace_everyone_live_idx ON public.chunks USING btree (workspace_id) WHERE (readable_by_everyone AND (embedding IS NOT NULL) AND is_live);

--
-- Name: chunks_workspace_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_workspace_id_idx ON public.chunks USING btree (workspace_id);

--
-- Name: chunks_workspace_live_embedded_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_workspace_live_embedded_idx ON public.chunks USING btree (workspace_id) WHERE ((embedding IS NOT NULL) AND is_live);

--
-- Name: chunks_workspace_restricted_live_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chunks_workspace_restricted_live_idx ON public.chunks USING btree (workspace_id, audience) WHERE ((embedding IS NOT NULL) AND is_live AND (NOT readable_by_everyone));

--
-- Name: dashboard_sessions_expires_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX dashboard_sessions_expires_idx ON public.dashboard_sessions USING btree (expires_at);

--
-- Name: dashboard_sessions_workspace_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX dashboard_sessions_workspace_idx ON public.dashboard_sessions USING btree (workspace_id, created_at DESC);

--
-- Name: follow_ups_thread; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX follow_ups_thread ON public.follow_ups USING btree (workspace_id, thread_id, created_at);

--
-- Name: interactions_seen_received_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX interactions_seen_received_at_idx ON public.interactions_seen USING btree (received_at);

--
-- Name: jobs_artifact_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_artifact_id_idx ON public.jobs USING btree (artifact_id);

--
-- Name: jobs_finished_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_finished_at_idx ON public.jobs USING btree (finished_at) WHERE (finished_at IS NOT NULL);

--
-- Name: jobs_lease_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_lease_idx ON public.jobs USING btree (lease_expires_at) WHERE (status = 'running'::text);

--
-- Name: jobs_one_pending_day_sync_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX jobs_one_pending_day_sync_idx ON public.jobs USING btree (((payload ->> 'synced_channel_id'::text))) WHERE ((task = 'sync_channel_days'::text) AND (status = 'queued'::text));

--
-- Name: jobs_one_pending_per_artifact; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX jobs_one_pending_per_artifact ON public.jobs USING btree (artifact_id, task) WHERE (status = ANY (ARRAY['queued'::text, 'running'::text]));

--
-- Name: jobs_one_pending_sync_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX jobs_one_pending_sync_idx ON public.jobs USING btree (((payload ->> 'synced_channel_id'::text))) WHERE ((task = 'sync_channel'::text) AND (status = ANY (ARRAY['queued'::text, 'running'::text])));

--
-- Name: jobs_one_queued_everyone_flags_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX jobs_one_queued_everyone_flags_idx ON public.jobs USING btree (workspace_id) WHERE ((task = 'everyone_flags'::text) AND (status = 'queued'::text));

--
-- Name: jobs_queued_workspace_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_queued_workspace_idx ON public.jobs USING btree (workspace_id, run_at, created_at) WHERE (status = 'queued'::text);

--
-- Name: jobs_runnable_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_runnable_idx ON public.jobs USING btree (run_at) WHERE (status = 'queued'::text);

--
-- Name: jobs_running_workspace_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_running_workspace_idx ON public.jobs USING btree (workspace_id) WHERE (status = 'running'::text);

--
-- Name: jobs_workspace_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_workspace_id_idx ON public.jobs USING btree (workspace_id);

--
-- Name: mcp_tokens_live_name_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX mcp_tokens_live_name_idx ON public.mcp_tokens USING btree (workspace_id, lower(name)) WHERE (revoked_at IS NULL);

--
-- Name: mcp_tokens_workspace_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX mcp_tokens_workspace_idx ON public.mcp_tokens USING btree (workspace_id, created_at DESC);

--
-- Name: queries_created_at_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX queries_created_at_idx ON public.queries USING btree (created_at);

--
-- Name: queries_workspace_created_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX queries_workspace_created_idx ON public.queries USING btree (workspace_id, created_at DESC);

--
-- Name: rate_limit_counters_window_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX rate_limit_counters_window_idx ON public.rate_limit_counters USING btree (window_start);

--
-- Name: synced_sources_channel_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX synced_sources_channel_idx ON public.synced_sources USING btree (synced_channel_id);

--
-- Name: synced_sources_message_ids_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX synced_sources_message_ids_idx ON public.synced_sources USING gin (message_ids);

--
-- Name: thread_members_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX thread_members_user_idx ON public.thread_members USING btree (workspace_id, user_id);

--
-- Name: workspaces_claim_email_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX workspaces_claim_email_idx ON public.workspaces USING btree (claim_email) WHERE (claim_email IS NOT NULL);

--
-- Name: artifacts artifacts_audience_to_chunks; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER artifacts_audience_to_chunks AFTER UPDATE OF audience ON public.artifacts FOR EACH ROW WHEN ((old.audience IS DISTINCT FROM new.audience)) EXECUTE FUNCTION brain_private.artifact_audience_to_chunks();

--
-- Name: artifacts artifacts_touch_updated_at; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER artifacts_touch_updated_at BEFORE UPDATE ON public.artifacts FOR EACH ROW EXECUTE FUNCTION brain_private.touch_updated_at();

--
-- Name: autoanswer_channels autoanswer_channels_touch_updated_at; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER autoanswer_channels_touch_updated_at BEFORE UPDATE ON public.autoanswer_channels FOR EACH ROW EXECUTE FUNCTION brain_private.touch_updated_at();

--
-- Name: chunks chunks_take_artifact_audience; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER chunks_take_artifact_audience BEFORE INSERT OR UPDATE OF artifact_id, audience ON public.chunks FOR EACH ROW EXECUTE FUNCTION brain_private.chunk_takes_artifact_audience();

--
-- Name: chunks chunks_take_everyone_flag; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER chunks_take_everyone_flag BEFORE INSERT OR UPDATE OF artifact_id, audience, readable_by_everyone ON public.chunks FOR EACH ROW EXECUTE FUNCTION brain_private.chunk_takes_everyone_flag();

--
-- Name: guild_facts guild_facts_everyone_set; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER guild_facts_everyone_set BEFORE INSERT OR UPDATE ON public.guild_facts FOR EACH ROW EXECUTE FUNCTION brain_private.guild_facts_everyone_set();

--
-- Name: guild_facts guild_facts_queue_everyone_flags_on_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER guild_facts_queue_everyone_flags_on_insert AFTER INSERT ON public.guild_facts FOR EACH ROW EXECUTE FUNCTION brain_private.guild_facts_queue_everyone_flags();

--
-- Name: guild_facts guild_facts_queue_everyone_flags_on_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER guild_facts_queue_everyone_flags_on_update AFTER UPDATE OF everyone_audiences ON public.guild_facts FOR EACH ROW WHEN ((old.everyone_audiences IS DISTINCT FROM new.everyone_audiences)) EXECUTE FUNCTION brain_private.guild_facts_queue_everyone_flags();

--
-- Name: jobs jobs_notify_queued; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER jobs_notify_queued AFTER INSERT OR UPDATE OF status ON public.jobs FOR EACH ROW WHEN ((new.status = 'queued'::text)) EXECUTE FUNCTION brain_private.notify_job_queued();

--
-- Name: jobs jobs_touch_updated_at; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER jobs_touch_updated_at BEFORE UPDATE ON public.jobs FOR EACH ROW EXECUTE FUNCTION brain_private.touch_updated_at();

--
-- Name: queries queries_tally; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER queries_tally AFTER INSERT OR DELETE OR UPDATE OF workspace_id, created_at, grounded, retrieved, cited, feedback ON public.queries FOR EACH ROW EXECUTE FUNCTION brain_private.tally_query();

--
-- Name: synced_channels synced_channels_touch_updated_at; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER synced_channels_touch_updated_at BEFORE UPDATE ON public.synced_channels FOR EACH ROW EXECUTE FUNCTION brain_private.touch_updated_at();

--
-- Name: workspaces workspaces_claim_email_once; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER workspaces_claim_email_once BEFORE UPDATE OF claim_email ON public.workspaces FOR EACH ROW EXECUTE FUNCTION brain_private.refuse_claim_overwrite();

--
-- Name: workspaces workspaces_touch_updated_at; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER workspaces_touch_updated_at BEFORE UPDATE ON public.workspaces FOR EACH ROW EXECUTE FUNCTION brain_private.touch_updated_at();

--
-- Name: artifact_sources artifact_sources_artifact_id_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.artifact_sources
    ADD CONSTRAINT artifact_sources_artifact_id_workspace_id_fkey FOREIGN KEY (artifact_id, workspace_id) REFERENCES public.artifacts(id, workspace_id) ON DELETE CASCADE;

--
-- Name: artifact_sources artifact_sources_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.artifact_sources
    ADD CONSTRAINT artifact_sources_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: artifacts artifacts_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.artifacts
    ADD CONSTRAINT artifacts_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: audience_changes audience_changes_artifact_id_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audience_changes
    ADD CONSTRAINT audience_changes_artifact_id_workspace_id_fkey FOREIGN KEY (artifact_id, workspace_id) REFERENCES public.artifacts(id, workspace_id) ON DELETE CASCADE;

--
-- Name: audience_changes audience_changes_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audience_changes
    ADD CONSTRAINT audience_changes_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: auth_tokens auth_tokens_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auth_tokens
    ADD CONSTRAINT auth_tokens_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: auto_answer_votes auto_answer_votes_auto_answer_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auto_answer_votes
    ADD CONSTRAINT auto_answer_votes_auto_answer_id_fkey FOREIGN KEY (auto_answer_id) REFERENCES public.auto_answers(id) ON DELETE CASCADE;

--
-- Name: auto_answer_votes auto_answer_votes_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auto_answer_votes
    ADD CONSTRAINT auto_answer_votes_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: auto_answers auto_answers_query_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auto_answers
    ADD CONSTRAINT auto_answers_query_id_fkey FOREIGN KEY (query_id) REFERENCES public.queries(id) ON DELETE SET NULL;

--
-- Name: auto_answers auto_answers_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auto_answers
    ADD CONSTRAINT auto_answers_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: autoanswer_channels autoanswer_channels_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.autoanswer_channels
    ADD CONSTRAINT autoanswer_channels_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: chunks chunks_artifact_id_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_artifact_id_workspace_id_fkey FOREIGN KEY (artifact_id, workspace_id) REFERENCES public.artifacts(id, workspace_id) ON DELETE CASCADE;

--
-- Name: chunks chunks_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.chunks
    ADD CONSTRAINT chunks_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: dashboard_sessions dashboard_sessions_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dashboard_sessions
    ADD CONSTRAINT dashboard_sessions_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: follow_ups follow_ups_query_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_query_id_fkey FOREIGN KEY (query_id) REFERENCES public.queries(id) ON DELETE SET NULL;

--
-- Name: follow_ups follow_ups_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.follow_ups
    ADD CONSTRAINT follow_ups_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: guild_facts guild_facts_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.guild_facts
    ADD CONSTRAINT guild_facts_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: job_claim_turns job_claim_turns_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_claim_turns
    ADD CONSTRAINT job_claim_turns_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: jobs jobs_artifact_id_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_artifact_id_workspace_id_fkey FOREIGN KEY (artifact_id, workspace_id) REFERENCES public.artifacts(id, workspace_id) ON DELETE CASCADE;

--
-- Name: jobs jobs_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: mcp_tokens mcp_tokens_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mcp_tokens
    ADD CONSTRAINT mcp_tokens_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: queries queries_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queries
    ADD CONSTRAINT queries_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: query_day_stats query_day_stats_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.query_day_stats
    ADD CONSTRAINT query_day_stats_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: query_source_day_stats query_source_day_stats_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.query_source_day_stats
    ADD CONSTRAINT query_source_day_stats_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: solved_threads solved_threads_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.solved_threads
    ADD CONSTRAINT solved_threads_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: sync_forgotten_keys sync_forgotten_keys_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_forgotten_keys
    ADD CONSTRAINT sync_forgotten_keys_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: synced_channels synced_channels_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.synced_channels
    ADD CONSTRAINT synced_channels_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: synced_sources synced_sources_artifact_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.synced_sources
    ADD CONSTRAINT synced_sources_artifact_id_fkey FOREIGN KEY (artifact_id) REFERENCES public.artifacts(id) ON DELETE SET NULL;

--
-- Name: synced_sources synced_sources_synced_channel_id_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.synced_sources
    ADD CONSTRAINT synced_sources_synced_channel_id_workspace_id_fkey FOREIGN KEY (synced_channel_id, workspace_id) REFERENCES public.synced_channels(id, workspace_id) ON DELETE CASCADE;

--
-- Name: synced_sources synced_sources_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.synced_sources
    ADD CONSTRAINT synced_sources_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: thread_members thread_members_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.thread_members
    ADD CONSTRAINT thread_members_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: usage_counters usage_counters_workspace_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.usage_counters
    ADD CONSTRAINT usage_counters_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES public.workspaces(id) ON DELETE CASCADE;

--
-- Name: artifact_sources; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.artifact_sources ENABLE ROW LEVEL SECURITY;

--
-- Name: artifact_sources artifact_sources_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY artifact_sources_own_workspace ON public.artifact_sources TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: artifacts; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.artifacts ENABLE ROW LEVEL SECURITY;

--
-- Name: artifacts artifacts_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY artifacts_own_workspace ON public.artifacts TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: audience_changes; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.audience_changes ENABLE ROW LEVEL SECURITY;

--
-- Name: audience_changes audience_changes_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY audience_changes_own_workspace ON public.audience_changes TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: auth_tokens; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.auth_tokens ENABLE ROW LEVEL SECURITY;

--
-- Name: auth_tokens auth_tokens_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY auth_tokens_own_workspace ON public.auth_tokens TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: auto_answer_votes; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.auto_answer_votes ENABLE ROW LEVEL SECURITY;

--
-- Name: auto_answer_votes auto_answer_votes_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY auto_answer_votes_own_workspace ON public.auto_answer_votes TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: auto_answers; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.auto_answers ENABLE ROW LEVEL SECURITY;

--
-- Name: auto_answers auto_answers_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY auto_answers_own_workspace ON public.auto_answers TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: autoanswer_channels; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.autoanswer_channels ENABLE ROW LEVEL SECURITY;

--
-- Name: autoanswer_channels autoanswer_channels_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY autoanswer_channels_own_workspace ON public.autoanswer_channels TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: chunks; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.chunks ENABLE ROW LEVEL SECURITY;

--
-- Name: chunks chunks_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY chunks_own_workspace ON public.chunks TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: dashboard_sessions; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.dashboard_sessions ENABLE ROW LEVEL SECURITY;

--
-- Name: dashboard_sessions dashboard_sessions_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY dashboard_sessions_own_workspace ON public.dashboard_sessions TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: follow_ups; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.follow_ups ENABLE ROW LEVEL SECURITY;

--
-- Name: follow_ups follow_ups_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY follow_ups_own_workspace ON public.follow_ups TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: gateway_leases; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.gateway_leases ENABLE ROW LEVEL SECURITY;

--
-- Name: guild_facts; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.guild_facts ENABLE ROW LEVEL SECURITY;

--
-- Name: guild_facts guild_facts_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY guild_facts_own_workspace ON public.guild_facts TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: interactions_seen; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.interactions_seen ENABLE ROW LEVEL SECURITY;

--
-- Name: job_claim_turns; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.job_claim_turns ENABLE ROW LEVEL SECURITY;

--
-- Name: job_claim_turns job_claim_turns_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY job_claim_turns_own_workspace ON public.job_claim_turns TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: jobs; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.jobs ENABLE ROW LEVEL SECURITY;

--
-- Name: jobs jobs_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY jobs_own_workspace ON public.jobs TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: mcp_tokens; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.mcp_tokens ENABLE ROW LEVEL SECURITY;

--
-- Name: mcp_tokens mcp_tokens_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY mcp_tokens_own_workspace ON public.mcp_tokens TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: queries; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.queries ENABLE ROW LEVEL SECURITY;

--
-- Name: queries queries_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY queries_own_workspace ON public.queries TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: query_day_stats; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.query_day_stats ENABLE ROW LEVEL SECURITY;

--
-- Name: query_day_stats query_day_stats_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY query_day_stats_own_workspace ON public.query_day_stats TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: query_source_day_stats; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.query_source_day_stats ENABLE ROW LEVEL SECURITY;

--
-- Name: query_source_day_stats query_source_day_stats_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY query_source_day_stats_own_workspace ON public.query_source_day_stats TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: rate_limit_counters; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.rate_limit_counters ENABLE ROW LEVEL SECURITY;

--
-- Name: solved_threads; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.solved_threads ENABLE ROW LEVEL SECURITY;

--
-- Name: solved_threads solved_threads_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY solved_threads_own_workspace ON public.solved_threads TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: stripe_events_seen; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.stripe_events_seen ENABLE ROW LEVEL SECURITY;

--
-- Name: sync_forgotten_keys; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.sync_forgotten_keys ENABLE ROW LEVEL SECURITY;

--
-- Name: sync_forgotten_keys sync_forgotten_keys_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY sync_forgotten_keys_own_workspace ON public.sync_forgotten_keys TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: synced_channels; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.synced_channels ENABLE ROW LEVEL SECURITY;

--
-- Name: synced_channels synced_channels_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY synced_channels_own_workspace ON public.synced_channels TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: synced_sources; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.synced_sources ENABLE ROW LEVEL SECURITY;

--
-- Name: synced_sources synced_sources_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY synced_sources_own_workspace ON public.synced_sources TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: thread_members; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.thread_members ENABLE ROW LEVEL SECURITY;

--
-- Name: thread_members thread_members_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY thread_members_own_workspace ON public.thread_members TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: usage_counters; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.usage_counters ENABLE ROW LEVEL SECURITY;

--
-- Name: usage_counters usage_counters_own_workspace; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY usage_counters_own_workspace ON public.usage_counters TO brain_tenant USING ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((workspace_id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: workspaces; Type: ROW SECURITY; Schema: public; Owner: -
--

ALTER TABLE public.workspaces ENABLE ROW LEVEL SECURITY;

--
-- Name: workspaces workspaces_own_row; Type: POLICY; Schema: public; Owner: -
--

CREATE POLICY workspaces_own_row ON public.workspaces TO brain_tenant USING ((id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id))) WITH CHECK ((id = ( SELECT brain_private.current_workspace_id() AS current_workspace_id)));

--
-- Name: SCHEMA brain; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA brain TO brain_tenant;
GRANT USAGE ON SCHEMA brain TO service_role;

--
-- Name: SCHEMA brain_private; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA brain_private TO brain_tenant;
GRANT USAGE ON SCHEMA brain_private TO service_role;

--
-- Name: SCHEMA public; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA public TO brain_tenant;

--
-- Name: TABLE jobs; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT ON TABLE public.jobs TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.jobs TO service_role;

--
-- Name: COLUMN jobs.status; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(status) ON TABLE public.jobs TO brain_tenant;

--
-- Name: COLUMN jobs.run_at; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(run_at) ON TABLE public.jobs TO brain_tenant;

--
-- Name: COLUMN jobs.finished_at; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(finished_at) ON TABLE public.jobs TO brain_tenant;

--
-- Name: FUNCTION claim_jobs(p_worker_id text, p_limit integer, p_lease_ms double precision, p_per_workspace integer, p_artifact_ids uuid[]); Type: ACL; Schema: brain; Owner: -
--

REVOKE ALL ON FUNCTION brain.claim_jobs(p_worker_id text, p_limit integer, p_lease_ms double precision, p_per_workspace integer, p_artifact_ids uuid[]) FROM PUBLIC;
GRANT ALL ON FUNCTION brain.claim_jobs(p_worker_id text, p_limit integer, p_lease_ms double precision, p_per_workspace integer, p_artifact_ids uuid[]) TO service_role;

--
-- Name: FUNCTION everyone_flags_current(p_follow text[], p_everyone text[]); Type: ACL; Schema: brain; Owner: -
--

REVOKE ALL ON FUNCTION brain.everyone_flags_current(p_follow text[], p_everyone text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION brain.everyone_flags_current(p_follow text[], p_everyone text[]) TO brain_tenant;
GRANT ALL ON FUNCTION brain.everyone_flags_current(p_follow text[], p_everyone text[]) TO service_role;

--
-- Name: FUNCTION match_artifacts(p_workspace_id uuid, query_embedding public.vector, query_text text, match_count integer, min_similarity double precision, p_audiences text[], runners_up integer); Type: ACL; Schema: brain; Owner: -
--

REVOKE ALL ON FUNCTION brain.match_artifacts(p_workspace_id uuid, query_embedding public.vector, query_text text, match_count integer, min_similarity double precision, p_audiences text[], runners_up integer) FROM PUBLIC;
GRANT ALL ON FUNCTION brain.match_artifacts(p_workspace_id uuid, query_embedding public.vector, query_text text, match_count integer, min_similarity double precision, p_audiences text[], runners_up integer) TO brain_tenant;
GRANT ALL ON FUNCTION brain.match_artifacts(p_workspace_id uuid, query_embedding public.vector, query_text text, match_count integer, min_similarity double precision, p_audiences text[], runners_up integer) TO service_role;

--
-- Name: FUNCTION artifact_audience_to_chunks(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.artifact_audience_to_chunks() FROM PUBLIC;

--
-- Name: FUNCTION chunk_takes_artifact_audience(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.chunk_takes_artifact_audience() FROM PUBLIC;

--
-- Name: FUNCTION chunk_takes_everyone_flag(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.chunk_takes_everyone_flag() FROM PUBLIC;

--
-- Name: FUNCTION current_workspace_id(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.current_workspace_id() FROM PUBLIC;
GRANT ALL ON FUNCTION brain_private.current_workspace_id() TO brain_tenant;
GRANT ALL ON FUNCTION brain_private.current_workspace_id() TO service_role;

--
-- Name: FUNCTION guild_facts_everyone_set(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.guild_facts_everyone_set() FROM PUBLIC;

--
-- Name: FUNCTION guild_facts_queue_everyone_flags(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.guild_facts_queue_everyone_flags() FROM PUBLIC;

--
-- Name: FUNCTION notify_job_queued(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.notify_job_queued() FROM PUBLIC;

--
-- Name: FUNCTION refuse_claim_overwrite(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.refuse_claim_overwrite() FROM PUBLIC;

--
-- Name: FUNCTION tally_query(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.tally_query() FROM PUBLIC;

--
-- Name: FUNCTION touch_updated_at(); Type: ACL; Schema: brain_private; Owner: -
--

REVOKE ALL ON FUNCTION brain_private.touch_updated_at() FROM PUBLIC;

--
-- Name: TABLE artifact_sources; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.artifact_sources TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.artifact_sources TO service_role;

--
-- Name: TABLE artifacts; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.artifacts TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.artifacts TO service_role;

--
-- Name: TABLE audience_changes; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT ON TABLE public.audience_changes TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.audience_changes TO service_role;

--
-- Name: TABLE auth_tokens; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.auth_tokens TO service_role;

--
-- Name: TABLE auto_answer_votes; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.auto_answer_votes TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.auto_answer_votes TO service_role;

--
-- Name: TABLE auto_answers; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.auto_answers TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.auto_answers TO service_role;

--
-- Name: TABLE autoanswer_channels; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.autoanswer_channels TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.autoanswer_channels TO service_role;

--
-- Name: TABLE chunks; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.chunks TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.chunks TO service_role;

--
-- Name: TABLE dashboard_sessions; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.dashboard_sessions TO service_role;

--
-- Name: TABLE follow_ups; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.follow_ups TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.follow_ups TO service_role;

--
-- Name: TABLE gateway_leases; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.gateway_leases TO service_role;

--
-- Name: TABLE guild_facts; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.guild_facts TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.guild_facts TO service_role;

--
-- Name: TABLE interactions_seen; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE ON TABLE public.interactions_seen TO service_role;

--
-- Name: TABLE job_claim_turns; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.job_claim_turns TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.job_claim_turns TO service_role;

--
-- Name: TABLE mcp_tokens; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.mcp_tokens TO service_role;

--
-- Name: COLUMN mcp_tokens.id; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(id) ON TABLE public.mcp_tokens TO brain_tenant;

--
-- Name: COLUMN mcp_tokens.workspace_id; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(workspace_id),INSERT(workspace_id) ON TABLE public.mcp_tokens TO brain_tenant;

--
-- Name: COLUMN mcp_tokens.name; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(name),INSERT(name) ON TABLE public.mcp_tokens TO brain_tenant;

--
-- Name: COLUMN mcp_tokens.token_hash; Type: ACL; Schema: public; Owner: -
--

GRANT INSERT(token_hash) ON TABLE public.mcp_tokens TO brain_tenant;

--
-- Name: COLUMN mcp_tokens.created_by; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(created_by),INSERT(created_by) ON TABLE public.mcp_tokens TO brain_tenant;

--
-- Name: COLUMN mcp_tokens.created_at; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(created_at) ON TABLE public.mcp_tokens TO brain_tenant;

--
-- Name: COLUMN mcp_tokens.last_used_at; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(last_used_at) ON TABLE public.mcp_tokens TO brain_tenant;

--
-- Name: COLUMN mcp_tokens.revoked_at; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(revoked_at),UPDATE(revoked_at) ON TABLE public.mcp_tokens TO brain_tenant;

--
-- Name: COLUMN mcp_tokens.audience_scope; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT(audience_scope),INSERT(audience_scope) ON TABLE public.mcp_tokens TO brain_tenant;

--
-- Name: TABLE queries; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT ON TABLE public.queries TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.queries TO service_role;

--
-- Name: COLUMN queries.feedback; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(feedback) ON TABLE public.queries TO brain_tenant;

--
-- Name: COLUMN queries.feedback_by; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(feedback_by) ON TABLE public.queries TO brain_tenant;

--
-- Name: COLUMN queries.feedback_at; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(feedback_at) ON TABLE public.queries TO brain_tenant;

--
-- Name: TABLE query_day_stats; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.query_day_stats TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.query_day_stats TO service_role;

--
-- Name: TABLE query_source_day_stats; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.query_source_day_stats TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.query_source_day_stats TO service_role;

--
-- Name: TABLE rate_limit_counters; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.rate_limit_counters TO service_role;

--
-- Name: TABLE solved_threads; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.solved_threads TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.solved_threads TO service_role;

--
-- Name: TABLE stripe_events_seen; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.stripe_events_seen TO service_role;

--
-- Name: TABLE sync_forgotten_keys; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.sync_forgotten_keys TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.sync_forgotten_keys TO service_role;

--
-- Name: TABLE synced_channels; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.synced_channels TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.synced_channels TO service_role;

--
-- Name: TABLE synced_sources; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.synced_sources TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.synced_sources TO service_role;

--
-- Name: TABLE thread_members; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.thread_members TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.thread_members TO service_role;

--
-- Name: TABLE usage_counters; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.usage_counters TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.usage_counters TO service_role;

--
-- Name: TABLE workspaces; Type: ACL; Schema: public; Owner: -
--

GRANT SELECT ON TABLE public.workspaces TO brain_tenant;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.workspaces TO service_role;

--
-- Name: COLUMN workspaces.name; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(name) ON TABLE public.workspaces TO brain_tenant;

--
-- Name: COLUMN workspaces.match_count; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(match_count) ON TABLE public.workspaces TO brain_tenant;

--
-- Name: COLUMN workspaces.min_similarity; Type: ACL; Schema: public; Owner: -
--

GRANT UPDATE(min_similarity) ON TABLE public.workspaces TO brain_tenant;

--
-- PostgreSQL database dump complete
--
