import type { Queryable } from '@brain/db';

export const LATENCY_STAGES = ['embed', 'search', 'generate', 'total'] as const;
export type LatencyStage = (typeof LATENCY_STAGES)[number];

export interface StagePercentiles {
  stage: LatencyStage;
  /** Questions that ran this stage (generate does not run when nothing was retrieved). */
  samples: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/**
 * Percentiles are taken over at most this many of the window's most recent questions: p99 of
 * 2,000 samples is steady, latency is about how the brain answers now, and four sorts of every
 * question in a busy 90-day window would blow the page's 100 ms budget.
 */
export const LATENCY_SAMPLE = 2000;

/**
 * p50/p95/p99 of each stage's milliseconds over the window's latest LATENCY_SAMPLE questions,
 * linearly interpolated (percentile_cont, like numpy's default), over the stored columns
 * generated from latency_ms. A stage a question did not run is absent from its latency_ms and so
 * from that stage's samples.
 */
export async function latencyPercentiles(tx: Queryable, workspaceId: string, days: number): Promise<StagePercentiles[]> {
  const select = LATENCY_STAGES.map(
    (stage) => `count(q.latency_${stage}_ms)::int as ${stage}_n,
      percentile_cont(array[0.5, 0.95, 0.99]) within group (order by q.latency_${stage}_ms) as ${stage}_p`,
  ).join(',\n');
  const [row] = await tx.query<Record<string, number | number[] | null>>(
    `select ${select}
     from (
       select r.latency_embed_ms, r.latency_search_ms, r.latency_generate_ms, r.latency_total_ms
       from queries r
       where r.workspace_id = $1 and r.created_at >= now() - make_interval(days => $2)
       order by r.created_at desc
       limit $3
     ) q`,
    [workspaceId, days, LATENCY_SAMPLE],
  );
  return LATENCY_STAGES.map((stage) => {
    const samples = Number(row?.[`${stage}_n`] ?? 0);
    const p = (row?.[`${stage}_p`] ?? null) as number[] | null;
    const at = (i: number) => (samples > 0 && p ? Number(p[i]) : null);
    return { stage, samples, p50: at(0), p95: at(1), p99: at(2) };
  });
}
