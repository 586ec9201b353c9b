import type { Queryable } from '@brain/db';
import { UNANSWERED } from '../window.ts';

export interface DayCount {
  /** YYYY-MM-DD, UTC. */
  day: string;
  questions: number;
  unanswered: number;
  /** null on a day without questions (no rate to show, rather than 0 %). */
  rate: number | null;
}

/** Questions and unanswered ones per UTC day, for every day of the window including empty ones, oldest first. */
export async function unansweredByDay(tx: Queryable, workspaceId: string, days: number): Promise<DayCount[]> {
  const rows = await tx.query<{ day: string; questions: number; unanswered: number }>(
    `with bounds as (
       select date_trunc('day', now() at time zone 'UTC') - make_interval(days => $2 - 1) as first_day
     ), counts as (
       select date_trunc('day', q.created_at at time zone 'UTC') as day,
              count(*)::int as questions,
              count(*) filter (where ${UNANSWERED})::int as unanswered
       from queries q, bounds b
       where q.workspace_id = $1 and q.created_at >= b.first_day at time zone 'UTC'
       group by 1
     )
     select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(c.questions, 0) as questions, coalesce(c.unanswered, 0) as unanswered
     from bounds b, generate_series(b.first_day, b.first_day + make_interval(days => $2 - 1), interval '1 day') as d(day)
     left join counts c on c.day = d.day
     order by d.day`,
    [workspaceId, days],
  );
  return rows.map((r) => ({ ...r, rate: r.questions > 0 ? r.unanswered / r.questions : null }));
}
