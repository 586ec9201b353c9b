import type { Queryable } from '@brain/db';
import { firstDay } from '../window.ts';

export interface OverviewFigures {
  sources: { queued: number; indexing: number; ready: number; failed: number; forgotten: number };
  /** Passages that answer now (live, embedded). */
  passages: number;
  questionsThisWeek: number;
  questionsLastWeek: number;
  /** Over the chosen window. */
  window: {
    days: number;
    questions: number;
    unanswered: number;
    /** unanswered / questions; null with no questions. */
    unansweredRate: number | null;
    up: number;
    down: number;
    /** up / (up + down); null with no votes. */
    upShare: number | null;
  };
}

interface Row extends Record<string, unknown> {
  queued: number;
  indexing: number;
  ready: number;
  failed: number;
  forgotten: number;
  passages: number;
  this_week: number;
  last_week: number;
  questions: number;
  unanswered: number;
  up: number;
  down: number;
}

/**
 * The overview's figures in one statement: sources by status (forgotten ones apart), live
 * passages, questions in the last 7 UTC days and the 7 before, and over the window (whole UTC
 * days) the unanswered count and the 👍/👎 votes, all from the daily rollup. Run as the
 * workspace's tenant.
 */
export async function overviewFigures(tx: Queryable, workspaceId: string, days: number): Promise<OverviewFigures> {
  const [row] = await tx.query<Row>(
    `with s as (
       select count(*) filter (where forgotten_at is null and status = 'queued')::int as queued,
              count(*) filter (where forgotten_at is null and status = 'indexing')::int as indexing,
              count(*) filter (where forgotten_at is null and status = 'ready')::int as ready,
              count(*) filter (where forgotten_at is null and status = 'failed')::int as failed,
              count(*) filter (where forgotten_at is not null)::int as forgotten
       from artifacts where workspace_id = $1
     ), p as (
       select count(*)::int as passages from chunks where workspace_id = $1 and is_live
     ), w as (
       select coalesce(sum(d.questions) filter (where d.day >= ${firstDay('7')}), 0)::int as this_week,
              coalesce(sum(d.questions) filter (where d.day < ${firstDay('7')}), 0)::int as last_week
       from query_day_stats d where d.workspace_id = $1 and d.day >= ${firstDay('14')}
     ), q as (
       select coalesce(sum(d.questions), 0)::int as questions,
              coalesce(sum(d.unanswered), 0)::int as unanswered,
              coalesce(sum(d.up), 0)::int as up,
              coalesce(sum(d.down), 0)::int as down
       from query_day_stats d where d.workspace_id = $1 and d.day >= ${firstDay('$2')}
     )
     select * from s, p, w, q`,
    [workspaceId, days],
  );
  const r = row as Row;
  const rated = r.up + r.down;
  return {
    sources: { queued: r.queued, indexing: r.indexing, ready: r.ready, failed: r.failed, forgotten: r.forgotten },
    passages: r.passages,
    questionsThisWeek: r.this_week,
    questionsLastWeek: r.last_week,
    window: {
      days,
      questions: r.questions,
      unanswered: r.unanswered,
      unansweredRate: r.questions > 0 ? r.unanswered / r.questions : null,
      up: r.up,
      down: r.down,
      upShare: rated > 0 ? r.up / rated : null,
    },
  };
}
