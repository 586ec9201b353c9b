-- Issue 14, ingestion: the everyone-readable partial HNSW index is rebuilt with a lighter graph
-- (m = 8, ef_construction = 64; 20261202140000 built it like the main index, m = 16,
-- ef_construction = 128).
--
-- Why. Most passages are readable by everyone (audience 'workspace', or a channel every member
-- can view), so almost every passage is inserted into two HNSW graphs, and an HNSW insert is a
-- graph search plus the re-linking of its neighbours: bench:ingest on PostgreSQL measured one
-- worker at 228 chunks/s against 445 with the partial index dropped (docs/benchmarks.md). An
-- insert's search visits about ef_construction candidates, and it links and re-prunes up to
-- 2 × m neighbours at the bottom layer, so halving both about halves the second graph's cost.
--
-- What it costs. A sparser graph finds fewer of the true neighbours for the same hnsw.ef_search.
-- match_artifacts searches this index only for the calls that may cite everything every member
-- may read, with iterative scans and the same over-fetch as the main index; recall@5 against the
-- exact filtered result and p95 against the unfiltered call are measured by
-- `npm run bench:retrieval -- --audience` (docs/discord.md, Audiences). The main index keeps its
-- build options: it serves the unfiltered calls and every call by keys.
--
-- Rebuilding takes a while and blocks writes to public.chunks on a large database.
drop index if exists public.chunks_embedding_everyone_hnsw_idx;
create index chunks_embedding_everyone_hnsw_idx on public.chunks
  using hnsw (embedding vector_cosine_ops) with (m = 8, ef_construction = 64)
  where readable_by_everyone;
