-- Audiences: a reply may cite a source only if everyone who can read the reply could read the
-- source where it was saved (issue 14).
--
-- Every artifact records its origin (guild, the channel or thread it was saved in, a thread's
-- parent, whether that thread is private, the message ids it holds) and its audience key:
--   'workspace'        saved without a channel (CLI, MCP, dashboard): anyone in the server;
--   'channel:<id>'     the channel whose readers it takes: the channel itself, a public or
--                      announcement thread's parent, or a private thread itself;
--   'unknown'          saved from Discord before origins were recorded: citable nowhere in
--                      Discord until an admin sets its audience (/sources audience), visible to
--                      the operator (CLI, dashboard).
-- chunks.audience copies its artifact's key (kept by the triggers below) so match_artifacts
-- filters passages inside the index scan, beside the tenant predicate, without a join per tuple.

-- pgvector's library must be loaded before a function may carry a hnsw.* setting (issue 19).
select '[1]'::vector;

alter table public.artifacts
  add column origin_guild_id text,
  add column origin_channel_id text,
  add column origin_parent_id text,
  add column origin_private_thread boolean not null default false,
  add column origin_message_ids text[] not null default '{}',
  add column audience text not null default 'workspace'
    check (audience = 'workspace' or audience = 'unknown' or audience ~ '^channel:[0-9]{1,20}$');

comment on column public.artifacts.audience is
  '''workspace'', ''channel:<id>'' (whose readers may be cited this source) or ''unknown''; see 20261201070100.';

-- Sources saved from Discord before this migration: a saved message names its channel; a link,
-- file or text saved with /save does not, so it fails closed until an admin places it.
update public.artifacts
   set origin_channel_id = metadata ->> 'channel_id',
       origin_message_ids = array[metadata ->> 'message_id'],
       audience = 'channel:' || (metadata ->> 'channel_id')
 where kind = 'discord_message' and metadata ->> 'channel_id' ~ '^[0-9]{1,20}$';
update public.artifacts set audience = 'unknown'
 where audience = 'workspace' and saved_by like 'discord:%';

alter table public.chunks add column audience text not null default 'workspace';
update public.chunks c set audience = a.audience from public.artifacts a where a.id = c.artifact_id and c.audience <> a.audience;

create or replace function brain_private.chunk_takes_artifact_audience()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  select a.audience into new.audience from public.artifacts a where a.id = new.artifact_id;
  return new;
end
$$;

create trigger chunks_take_artifact_audience
  before insert or update of artifact_id, audience on public.chunks
  for each row execute function brain_private.chunk_takes_artifact_audience();

create or replace function brain_private.artifact_audience_to_chunks()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  update public.chunks set audience = new.audience where artifact_id = new.id and audience <> new.audience;
  return null;
end
$$;

create trigger artifacts_audience_to_chunks
  after update of audience on public.artifacts
  for each row when (old.audience is distinct from new.audience)
  execute function brain_private.artifact_audience_to_chunks();

revoke all on function brain_private.chunk_takes_artifact_audience() from public;
revoke all on function brain_private.artifact_audience_to_chunks() from public;

-- "Which audiences have sources" is asked on every /ask: the few distinct keys of one workspace.
create index artifacts_workspace_audience_idx on public.artifacts (workspace_id, audience);

-- The exact-path count of one audience's live passages inside a large workspace.
create index chunks_workspace_audience_live_idx on public.chunks (workspace_id, audience)
  where embedding is not null and is_live;

-- Who widened or narrowed a source's audience, when, from what to what.
create table public.audience_changes (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  artifact_id uuid not null,
  changed_by text not null check (length(changed_by) between 1 and 254),
  from_audience text not null,
  to_audience text not null check (to_audience = 'workspace' or to_audience ~ '^channel:[0-9]{1,20}$'),
  changed_at timestamptz not null default now(),
  foreign key (artifact_id, workspace_id) references public.artifacts (id, workspace_id) on delete cascade
);

create index audience_changes_artifact_idx on public.audience_changes (workspace_id, artifact_id, changed_at desc);

alter table public.audience_changes enable row level security;
alter table public.audience_changes force row level security;

create policy audience_changes_own_workspace on public.audience_changes
  for all to brain_tenant
  using (workspace_id = (select brain_private.current_workspace_id()))
  with check (workspace_id = (select brain_private.current_workspace_id()));

-- service_role too: Supabase's default privileges would leave it TRUNCATE, REFERENCES and TRIGGER (see 20261201070000).
revoke all on table public.audience_changes from public, anon, authenticated, service_role;
grant select, insert on table public.audience_changes to brain_tenant;
grant select, insert, update, delete on table public.audience_changes to service_role;

-- MCP tokens take an audience when created: 'public' (what @everyone can read, plus
-- workspace-wide sources) or a channel's. Existing tokens become 'public', the narrowest
-- default that still answers.
alter table public.mcp_tokens
  add column audience_scope text not null default 'public'
    check (audience_scope = 'public' or audience_scope ~ '^channel:[0-9]{1,20}$');
grant select (audience_scope) on table public.mcp_tokens to brain_tenant;
grant insert (audience_scope) on table public.mcp_tokens to brain_tenant;

-- match_artifacts gains p_audiences: the audience keys this reply may cite. It defaults to
-- workspace-wide sources only; NULL, passed explicitly, is the operator's unrestricted view
-- (CLI, eval, dashboard). The predicate sits beside the tenant predicate in the count that
-- chooses the exact path (so a small audience is searched exactly), in both index-path budgets,
-- the exact path, the keyword leg and the final joins. Otherwise as 20261130090000 describes.
--
-- Fusion: hybrid never drops what the keyword leg alone would return. Until now the
-- similarity floor (min_similarity) applied to every fused candidate, so a passage the keyword
-- leg ranked first, but whose embedding sat below the floor, could be in keyword mode's top 5
-- and missing from hybrid's: on the Python docs' tune half hybrid recall@5 was 0.796 against
-- keyword alone 0.857. Now a passage among the keyword leg's first match_count passes the floor
-- as keyword mode would pass it; every other candidate still needs min_similarity.
-- The RRF constant goes from 20 (fitted to the fastify set) to 60, the usual value (Cormack et
-- al. 2009). Measured offline on the tune halves of both eval sets, each leg's candidates
-- re-fused (README "Retrieval quality", "After the answer and fusion work"):
--   today (RRF 20, floor on all):        python 0.796 / 0.721, fastify 0.962 / 0.781
--   RRF 20, keyword top-k past floor:     python 0.837 / 0.752, fastify 0.962 / 0.781
--   RRF 60, keyword top-k past floor:     python 0.837 / 0.752, fastify 0.962 / 0.803 (adopted)
drop function public.match_artifacts(uuid, vector, text, integer, double precision);

create or replace function public.match_artifacts(
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
  v_exact_max integer := coalesce(nullif(current_setting('brain.exact_search_max_rows', true), '')::integer, 1000);
  v_probe_tuples integer := coalesce(nullif(current_setting('brain.hnsw_probe_max_tuples', true), '')::integer, 5000);
  -- The full budget is whatever the session has (pgvector's default 20,000); the probe never exceeds it.
  v_full_tuples text := current_setting('hnsw.max_scan_tuples');
  v_exact boolean;
  v_nearest double precision;
  v_rrf_k constant double precision := 60;
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
  v_depth := greatest(match_count * 8, 40);

  if query_embedding is not null then
    select count(*) into v_tenant_rows
    from (
      select 1 from public.chunks c
      where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
        and (p_audiences is null or c.audience = any(p_audiences))
      limit v_exact_max + 1
    ) s;
    v_exact := v_tenant_rows <= v_exact_max;

    if not v_exact then
      perform set_config('enable_sort', 'off', true);
      -- The probe's budget, then (when it came back short but relevant: the tenant has passages
      -- near the question that the probe did not reach) the full one.
      foreach v_budget in array array[least(v_probe_tuples, v_full_tuples::integer), v_full_tuples::integer] loop
        perform set_config('hnsw.max_scan_tuples', v_budget::text, true);
        select coalesce(array_agg(x.id order by x.distance, x.id), '{}'), min(x.distance) into v_vector_ids, v_nearest
        from (
          select c.id, c.embedding <=> query_embedding as distance
          from public.chunks c
          where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
        and (p_audiences is null or c.audience = any(p_audiences))
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
      select coalesce(array_agg(x.id order by x.distance, x.id), '{}') into v_vector_ids
      from (
        select c.id, (c.embedding <=> query_embedding) + 0 as distance
        from public.chunks c
        where c.workspace_id = p_workspace_id and c.embedding is not null and c.is_live
        and (p_audiences is null or c.audience = any(p_audiences))
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
          and (p_audiences is null or c.audience = any(p_audiences))
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
                        and (p_audiences is null or c.audience = any(p_audiences))
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
                           and (p_audiences is null or a.audience = any(p_audiences))
    -- The keyword leg's own top match_count is what keyword mode returns: never filtered out.
    where query_embedding is null or s.sim >= min_similarity or s.k_rank <= match_count
  ) t
  -- Each further passage of a source counts 70 % of the one before it: one long source no longer
  -- fills every slot, yet a source that is by far the best still gives several passages.
  order by t.rrf * power(v_same_source_decay, t.nth - 1) desc, t.sim desc nulls last, t.id
  limit match_count;
end
$$;

comment on function public.match_artifacts(uuid, vector, text, integer, double precision, text[]) is
  'Hybrid (vector + full text, RRF) retrieval for one workspace and the audiences a reply may cite; SECURITY INVOKER with explicit tenant and audience predicates.';

revoke all on function public.match_artifacts(uuid, vector, text, integer, double precision, text[]) from public, anon, authenticated;
grant execute on function public.match_artifacts(uuid, vector, text, integer, double precision, text[]) to brain_tenant, service_role;
