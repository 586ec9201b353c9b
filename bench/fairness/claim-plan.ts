// npx tsx bench/fairness/claim-plan.ts --database-url postgres://… [--jobs 5000 --workspaces 50]
// The plans claim_jobs runs on PostgreSQL with a few thousand queued jobs: every statement inside
// the function, through auto_explain (needs a superuser, as on a throwaway CI cluster). Prints each
// plan and fails if any of them scans the jobs table sequentially.
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { withService } from '@brain/db';
import { openBenchDb } from '../ingest/bench-db.ts';

const { values: args } = parseArgs({
  options: { 'database-url': { type: 'string' }, jobs: { type: 'string', default: '5000' }, workspaces: { type: 'string', default: '50' }, done: { type: 'string', default: '20000' } },
});
const url = args['database-url'] ?? process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('claim-plan needs --database-url (PostgreSQL: PGlite has no auto_explain)');

const bench = await openBenchDb(url);
try {
  await withService(bench.db, async (tx) => {
    await tx.query(`insert into workspaces (slug) select 'plan-' || g from generate_series(1, $1::int) g`, [Number(args.workspaces)]);
    // Zipf-like: the first workspaces hold most of the queue, as a flood would.
    await tx.query(
      `with w as (select array_agg(id order by slug) as ids from workspaces where slug like 'plan-%'),
            a as (
              insert into artifacts (workspace_id, kind, source_key)
              select w.ids[1 + floor(($2::int) * power(random(), 3))::int], 'text', 'plan-' || g
              from generate_series(1, $1::int) g cross join w
              returning id, workspace_id
            )
       insert into jobs (workspace_id, artifact_id, task, status, finished_at)
       select workspace_id, id, 'ingest', case when random() < $3::float8 then 'done' else 'queued' end, null from a`,
      [Number(args.jobs) + Number(args.done), Number(args.workspaces), Number(args.done) / (Number(args.jobs) + Number(args.done))],
    );
    await tx.query(`update jobs set finished_at = now() where status = 'done'`);
  });
  const sql = postgres(bench.url as string, { max: 1, onnotice: (n) => plans.push(String(n.message)) });
  const plans: string[] = [];
  await sql`analyze jobs`;
  const [counts] = await sql<{ queued: number; done: number }[]>`select count(*) filter (where status = 'queued')::int as queued, count(*) filter (where status = 'done')::int as done from jobs`;
  await sql.unsafe(`load 'auto_explain'`);
  await sql.unsafe(`set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set auto_explain.log_analyze = on; set auto_explain.log_level = notice`);
  const started = performance.now();
  const claimed = await sql`select id, workspace_id from brain.claim_jobs('plan', 4, 60000, 2, null)`;
  const ms = performance.now() - started;
  await sql.end();
  const inner = plans.filter((p) => !p.includes('Function Scan on claim_jobs'));
  for (const p of inner) console.log(p, '\n');
  const seq = inner.filter((p) => /Seq Scan on jobs/.test(p));
  console.log(`${counts?.queued} queued and ${counts?.done} done jobs in ${args.workspaces} workspaces; claimed ${claimed.length} in ${ms.toFixed(1)} ms (auto_explain with ANALYZE on); ${inner.length} statements explained; sequential scans of jobs: ${seq.length}`);
  if (seq.length > 0) process.exitCode = 1;
} finally {
  await bench.close();
}
