-- Two index changes for retrieval, measured by `npm run bench:retrieval` (README, "Retrieval at
-- scale"; 200,000 passages of 1536 dimensions in 1,000 workspaces that save many of the same
-- documents).
--
-- 1. The HNSW index is rebuilt with ef_construction = 128 (pgvector's default is 64; m stays 16).
--    With 64, 3.8 % of passages could not be found through the index even when the query was the
--    passage's own vector: insertion prunes the links among many near-duplicates (the same page
--    saved by many servers) and some passages are left with no way in. No ef_search at query
--    time brings them back: recall@5 on the index path stayed at 0.97-0.98 for ef_search 40 to
--    400. With 128, 1.2 % were unreachable and recall@5 on the index path was 0.999. The cost is
--    a slower build (about 1.4x in PGlite) and slower inserts, since each insert searches the
--    graph with ef_construction candidates; the index is the same size (the vectors, not the
--    links, fill its pages). On a database that already holds many passages the rebuild takes
--    minutes and blocks writes to chunks while it runs: apply it at a quiet time.
drop index public.chunks_embedding_hnsw_idx;

create index chunks_embedding_hnsw_idx on public.chunks
  using hnsw (embedding vector_cosine_ops)
  with (m = 16, ef_construction = 128)
  where embedding is not null;

-- 2. The embedded, live passages of one workspace: what match_artifacts counts to choose its
--    path, and what its exact path reads. The count of a large workspace stops at the threshold,
--    but through chunks_workspace_id_idx it still visited that many heap rows (about 10 ms for
--    1,000 with everything cached); from this index it is an index-only scan of a few pages.
create index chunks_workspace_live_embedded_idx on public.chunks (workspace_id)
  where embedding is not null and is_live;
