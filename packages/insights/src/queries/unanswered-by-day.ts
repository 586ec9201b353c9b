import type { Queryable } from '@brain/db';
import { firstDay } from '../window.ts';

export interface DayCount {
  /** YYYY-MM-DD, UTC. */
  day: string;
  questions: number;
  unanswered: number;
  /** null on a day without questions (no rate to show, rather than 0 %). */
  rate: number | null;
}

/** Questions and unanswered ones per UTC day, for every day of the window including empty ones, oldest first (from the daily rollup). */
export async function unansweredByDay(tx: Queryable, workspaceId: string, days: number): Promise<DayCount[]> {
  const rows = await tx.query<{ day: string; questions: number; unanswered: number }>(
    `select to_char(g.day, 'YYYY-MM-DD') as day, coalesce(d.questions, 0) as questions, coalesce(d.unanswered, 0) as unanswered
     from generate_series(${firstDay('$2')}, (now() at time zone 'UTC')::date, interval '1 day') as g(day)
     left join query_day_stats d on d.workspace_id = $1 and d.day = g.day::date
     order by g.day`,
    [workspaceId, days],
  );
  return rows.map((r) => ({ ...r, rate: r.questions > 0 ? r.unanswered / r.questions : null }));
}
