import { beforeAll, expect, it } from 'vitest';
import { withService, withWorkspace, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { insertQuestions, insertSources, syntheticQuestions } from '../src/testing/index.ts';
import { createWorkspace } from './fixture.ts';

/** The daily rollups recomputed from the raw queries rows, in the shape the tables hold. */
async function recomputed(db: Database, workspaceId: string) {
  return withService(db, async (tx) => ({
    days: await tx.query(
      `select q.day::text, count(*)::int as questions, count(*) filter (where not q.grounded)::int as unanswered,
              count(*) filter (where q.feedback = 'up')::int as up, count(*) filter (where q.feedback = 'down')::int as down,
              array(select count(e)::int from generate_series(0, 19) g(i) left join (
                select least(greatest(floor((e->>'similarity')::float8 * 20)::int, 0), 19) as i, e from queries r cross join lateral jsonb_array_elements(r.retrieved) e
                where r.workspace_id = $1 and (r.created_at at time zone 'UTC')::date = q.day and jsonb_typeof(e->'similarity') = 'number') x on x.i = g.i group by g.i order by g.i) as retrieved_bins
       from (select *, (created_at at time zone 'UTC')::date as day from queries where workspace_id = $1) q
       group by q.day order by q.day`,
      [workspaceId],
    ),
    sources: await tx.query(
      `select (q.created_at at time zone 'UTC')::date::text as day, x.a as artifact_id, count(distinct q.id)::int as retrieved_in,
              count(distinct q.id) filter (where x.cited)::int as cited_in
       from queries q cross join lateral (
         select e->>'artifact_id' as a, false as cited from jsonb_array_elements(q.retrieved) e
         union all select c->>'artifact_id', true from jsonb_array_elements(q.cited) c) x
       where q.workspace_id = $1 and x.a is not null group by 1, 2 order by 1, 2`,
      [workspaceId],
    ),
  }));
}

async function rollups(db: Database, workspaceId: string) {
  return withWorkspace(db, workspaceId, async (tx) => ({
    days: await tx.query(
      `select day::text, questions, unanswered, up, down, retrieved_bins from query_day_stats where workspace_id = $1 and questions > 0 order by day`,
      [workspaceId],
    ),
    sources: await tx.query(
      `select day::text, artifact_id::text, retrieved_in, cited_in from query_source_day_stats where workspace_id = $1 and retrieved_in > 0 order by 1, 2`,
      [workspaceId],
    ),
  }));
}

describeDb('daily rollups of the queries telemetry', (suite) => {
  let ws: string;
  let ids: string[];

  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'rollups');
    const sources = await insertSources(suite.db, ws, Array.from({ length: 6 }, (_, i) => ({ title: `S${i}`, passages: 3 })));
    ids = await insertQuestions(suite.db, ws, syntheticQuestions({ count: 300, sources, days: 20, seed: 3 }));
  });

  it('match the raw rows after inserts, as service_role and as the tenant', async () => {
    await withWorkspace(suite.db, ws, (tx) =>
      tx.query(`insert into queries (workspace_id, question, grounded, answerer, retrieved) values ($1, 'tenant asks', false, 'none', '[{"chunk_id": "x", "similarity": 0.5}]')`, [ws]),
    );
    const [raw, rolled] = [await recomputed(suite.db, ws), await rollups(suite.db, ws)];
    expect(rolled.days).toEqual(raw.days);
    expect(rolled.sources).toEqual(raw.sources);
    expect(rolled.days.reduce((n, d) => n + Number(d.questions), 0)).toBe(301);
  });

  it('follow votes, moved timestamps and deletions', async () => {
    await withWorkspace(suite.db, ws, async (tx) => {
      await tx.query(`update queries set feedback = 'down', feedback_at = now() where id = any($1::uuid[])`, [`{${ids.slice(0, 20).join(',')}}`]);
      await tx.query(`update queries set feedback = null where id = any($1::uuid[])`, [`{${ids.slice(20, 30).join(',')}}`]);
    });
    await withService(suite.db, async (tx) => {
      await tx.query(`update queries set created_at = created_at - interval '3 days' where id = any($1::uuid[])`, [`{${ids.slice(30, 60).join(',')}}`]);
      await tx.query(`delete from queries where id = any($1::uuid[])`, [`{${ids.slice(60, 90).join(',')}}`]);
    });
    const [raw, rolled] = [await recomputed(suite.db, ws), await rollups(suite.db, ws)];
    expect(rolled.days).toEqual(raw.days);
    expect(rolled.sources).toEqual(raw.sources);
    expect(rolled.days.reduce((n, d) => n + Number(d.down), 0)).toBeGreaterThanOrEqual(20);
  });

  it('go with their workspace', async () => {
    const gone = await createWorkspace(suite.db, 'rollups-gone');
    await insertQuestions(suite.db, gone, [{ question: 'q', grounded: false }]);
    await withService(suite.db, (tx) => tx.query('delete from workspaces where id = $1', [gone]));
    const [left] = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from query_day_stats where workspace_id = $1', [gone]));
    expect(left?.n).toBe(0);
  });
});
