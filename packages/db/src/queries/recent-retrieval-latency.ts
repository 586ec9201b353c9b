import type { Database } from '../database.ts';
import { withService } from '../with-workspace.ts';

export interface RetrievalLatency {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/**
 * Quantiles of the search stage of recent asks, from the `queries` rows every process writes
 * (Discord, MCP, CLI), so one scrape of one web instance sees them all. 0 when there were none.
 */
export async function recentRetrievalLatency(db: Database, withinSeconds = 300): Promise<RetrievalLatency> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ n: number; p50: number | null; p95: number | null; p99: number | null }>(
      `select count(*)::int as n,
              percentile_cont(0.5) within group (order by (latency_ms->>'search')::float8) as p50,
              percentile_cont(0.95) within group (order by (latency_ms->>'search')::float8) as p95,
              percentile_cont(0.99) within group (order by (latency_ms->>'search')::float8) as p99
       from queries
       where created_at > now() - make_interval(secs => $1) and latency_ms ? 'search'`,
      [withinSeconds],
    ),
  );
  return { count: row?.n ?? 0, p50Ms: row?.p50 ?? 0, p95Ms: row?.p95 ?? 0, p99Ms: row?.p99 ?? 0 };
}
