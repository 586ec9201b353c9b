-- Which sources an answer was allowed to cite, on its queries row: an audit of every reply
-- (issue 14), and what the dashboard's questions page shows beside each question.
--   {"kind":"everything"}                       the operator's view (CLI, eval, dashboard)
--   {"kind":"keys","keys":["workspace", ...]}   a Discord reply, a private ask, an MCP token
-- NULL: asked before this column existed. A new column keeps the table's RLS (enabled, forced,
-- its policy on brain_private.current_workspace_id()); no table is created, so no grant changes.
alter table public.queries
  add column audience jsonb
    check (
      audience is null
      or audience = '{"kind":"everything"}'::jsonb
      or (audience ->> 'kind' = 'keys' and jsonb_typeof(audience -> 'keys') = 'array')
    );

comment on column public.queries.audience is 'The audience filter the answer was allowed to cite: {"kind":"everything"} or {"kind":"keys","keys":[...]}; NULL before 20261201120000.';
