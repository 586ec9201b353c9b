-- Issue 14: the 'everyone' call of match_artifacts (20261202140000) first counts the workspace's
-- everyone-readable passages (exact path or index path). Through chunks_workspace_live_embedded_idx
-- that count read every passage of the workspace from the heap to check the flag (21 ms for the
-- 27,000 of bench:retrieval's largest workspace); this B-tree answers it from the index, as
-- chunks_workspace_audience_live_idx does for a call by audience keys.
create index chunks_workspace_everyone_live_idx on public.chunks (workspace_id)
  where readable_by_everyone and embedding is not null and is_live;
