import { hnswParameters } from './indexes.ts';
import type { Summary } from './measure.ts';
import type { BucketResult, GroupResult } from './bucket-results.ts';
import type { FlagJob, ScaleResult } from './run-scale.ts';
import { AUDIENCE_KEYS, AUDIENCE_NAME, EVERYONE_NAME, exactPath, forcedIndexName, production, REFERENCE_NAME, RUNNERS_UP_NAME, SECOND_CALL_NAME, STAFF_KEYS, STAFF_NAME } from './variants.ts';

export interface Environment {
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; loadAverageBefore: number[]; loadAverageAfter: number[] };
  server: Record<string, string>;
}

export interface BenchReport {
  benchmark: 'retrieval';
  generatedAt: string;
  command: string;
  environment: Environment;
  shape: unknown;
  runs: ScaleResult[];
  /** Latency of the main run over the smaller one (same shape, fewer workspaces and passages). */
  scaleRatio: { fromChunks: number; toChunks: number; p50: number; p95: number; referenceP50: number; referenceP95: number } | null;
}

const PROD = production({ hybrid: false }).name;
const HYBRID = production({ hybrid: true }).name;
const REF = REFERENCE_NAME;
const OFF = forcedIndexName({ iterativeScan: 'off' });
const RELAXED = forcedIndexName({ iterativeScan: 'relaxed_order' });
const HALF = forcedIndexName({ iterativeScan: 'relaxed_order', index: 'halfvec' });
const EXACT = exactPath().name;

const ms = (n: number | undefined): string => (n === undefined || Number.isNaN(n) ? '—' : n.toFixed(1));
const r3 = (n: number | undefined): string => (n === undefined || Number.isNaN(n) ? '—' : n.toFixed(3));
const int = (n: number): string => n.toLocaleString('en-US');
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** On-topic questions: the latency a workspace sees for what it saved. */
export function scaleRatio(small: ScaleResult, large: ScaleResult): BenchReport['scaleRatio'] {
  const a = small.onTopic.variants[PROD];
  const b = large.onTopic.variants[PROD];
  const ra = small.onTopic.variants[REF];
  const rb = large.onTopic.variants[REF];
  if (!a || !b || !ra || !rb) return null;
  const ratio = (x: number, y: number): number => Math.round((y / x) * 100) / 100;
  return {
    fromChunks: small.params.chunks,
    toChunks: large.params.chunks,
    p50: ratio(a.p50, b.p50),
    p95: ratio(a.p95, b.p95),
    referenceP50: ratio(ra.p50, rb.p50),
    referenceP95: ratio(ra.p95, rb.p95),
  };
}

function rowsRange(b: BucketResult): string {
  if (b.rowsMin === null || b.rowsMax === null) return '—';
  return b.rowsMin === b.rowsMax ? int(b.rowsMin) : `${int(b.rowsMin)}–${int(b.rowsMax)}`;
}

function pathUsed(g: GroupResult): string {
  if (g.queries === 0) return '—';
  if (g.productionHnswQueries === 0) return 'exact (B-tree)';
  if (g.productionHnswQueries === g.queries) return 'HNSW';
  return `HNSW ${g.productionHnswQueries}/${g.queries}, else exact`;
}

const recallCell = (s: Summary | undefined): string => `${r3(s?.recall)} (${r3(s?.worstWorkspaceRecall)})`;

function productionTable(run: ScaleResult): string[] {
  const lines = [
    '| workspace rows | workspaces (rows) | queries | index used | recall@5 vs exact distance (worst workspace) | recall@5 vs its own exact path (worst) | p50 ms | p95 ms | reference p50 ms | reference p95 ms | p95 / reference |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const row = (label: string, ws: string, g: GroupResult): string => {
    const s = g.variants[PROD];
    const ref = g.variants[REF];
    return `| ${label} | ${ws} | ${g.queries} | ${pathUsed(g)} | ${recallCell(s)} | ${g.productionVsExactFunction ? recallCell(g.productionVsExactFunction) : '—'} | ${ms(s?.p50)} | ${ms(s?.p95)} | ${ms(ref?.p50)} | ${ms(ref?.p95)} | ${s && ref ? (s.p95 / ref.p95).toFixed(2) : '—'} |`;
  };
  for (const b of run.buckets) {
    if (b.workspaces === 0) lines.push(`| ${b.label} | 0 | 0 | — | — | — | — | — | — | — | — |`);
    else lines.push(row(b.label, `${b.workspaces} (${rowsRange(b)})`, b.onTopic));
  }
  lines.push(row('**all**', int(run.params.workspaces), run.onTopic));
  return lines;
}

/**
 * A filtered run beside the unfiltered one, same run: recall against the same call's exact path.
 * The arbitrary set (its keys) and the everyone-readable set (the flag) allow the same passages;
 * the staff ask allows them and one small channel more. The path column is what the call ran on
 * one question of the bucket: since 20261202170000 the call by keys that holds the whole everyone
 * set searches the everyone-readable partial index, and the rest of its keys exactly when few.
 */
function audienceTable(run: ScaleResult, variant = AUDIENCE_NAME): string[] {
  if (!run.onTopic.variants[variant]) return [];
  const everyone = variant === EVERYONE_NAME;
  const staff = variant === STAFF_NAME;
  const title = everyone
    ? `Everyone-readable (${AUDIENCE_KEYS.join(', ')} again, now as the passages flagged readable_by_everyone, through their partial HNSW index), on-topic questions:`
    : staff
      ? `Staff ask (${STAFF_KEYS.join(', ')}: the everyone set and a small staff channel, by keys), on-topic questions:`
      : `Audience-filtered (${AUDIENCE_KEYS.join(', ')} by keys: about half of each workspace's sources, and exactly the load's everyone set), on-topic questions:`;
  const lines = [
    title,
    '',
    '| workspace rows | queries | path | recall@5 vs its exact filtered path (worst workspace) | recall@5 vs exact filtered distance | p50 ms | p95 ms | unfiltered p95 ms | p95 / unfiltered | meets (≥ 0.98, ≤ 1.5×) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const row = (label: string, g: GroupResult, path: string): string => {
    const a = g.variants[variant];
    const p = g.variants[PROD];
    const ratio = a && p ? a.p95 / p.p95 : Number.NaN;
    const exact = everyone ? g.everyoneVsExactFunction : staff ? g.staffVsExactFunction : g.audienceVsExactFunction;
    const meets = a && exact ? (exact.recall >= 0.98 && ratio <= 1.5 ? 'yes' : 'no') : '—';
    return `| ${label} | ${g.queries} | ${path} | ${exact ? recallCell(exact) : '—'} | ${staff ? '—' : recallCell(a)} | ${ms(a?.p50)} | ${ms(a?.p95)} | ${ms(p?.p95)} | ${Number.isNaN(ratio) ? '—' : ratio.toFixed(2)} | ${meets} |`;
  };
  for (const b of run.buckets) if (b.workspaces > 0) lines.push(row(b.label, b.onTopic, b.filteredPaths?.[variant] ?? '—'));
  lines.push(row('**all**', run.onTopic, ''));
  return lines;
}

function offTopicTable(run: ScaleResult): string[] {
  const lines = [
    '| workspace rows | queries | with a passage above the floor | own share of 100 nearest | index used | recall@5 (worst workspace) | p50 ms | p95 ms |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const b of run.buckets) {
    const g = b.offTopic;
    if (g.queries === 0) continue;
    const s = g.variants[PROD];
    lines.push(
      `| ${b.label} | ${g.queries} | ${pct(s?.answerable ?? null)} | ${r3(g.ownShareOf100 ?? undefined)} | ${pathUsed(g)} | ${recallCell(s)} | ${ms(s?.p50)} | ${ms(s?.p95)} |`,
    );
  }
  return lines;
}

function approximateTable(run: ScaleResult): string[] {
  const half = run.params.halfvec;
  const lines = [
    `| workspace rows | own share of 100 nearest | exact path p50 / p95 ms | iterative off: recall@5 | relaxed_order: recall@5 | relaxed p50 / p95 ms |${half ? ' halfvec relaxed: recall@5 | halfvec p50 / p95 ms |' : ''}`,
    `| --- | --- | --- | --- | --- | --- |${half ? ' --- | --- |' : ''}`,
  ];
  for (const b of run.buckets) {
    const g = b.onTopic;
    if (g.queries === 0) continue;
    const off = g.variants[OFF];
    const relaxed = g.variants[RELAXED];
    const h = g.variants[HALF];
    const exact = g.variants[EXACT];
    lines.push(
      `| ${b.label} | ${r3(g.ownShareOf100 ?? undefined)} | ${ms(exact?.p50)} / ${ms(exact?.p95)} | ${r3(off?.recall)} | ${r3(relaxed?.recall)} | ${ms(relaxed?.p50)} / ${ms(relaxed?.p95)} |` +
        (half ? ` ${r3(h?.recall)} | ${ms(h?.p50)} / ${ms(h?.p95)} |` : ''),
    );
  }
  return lines;
}

function describeHnsw(definition: string): string {
  const p = hnswParameters(definition);
  return `m ${p.m}, ef_construction ${p.efConstruction}`;
}

const pct = (share: number | null): string => (share === null ? '—' : `${(share * 100).toFixed(1)} %`);

function indexTable(runs: ScaleResult[]): string[] {
  const lines = ['| run | index | size | bytes per row | build s | unreachable passages |', '| --- | --- | --- | --- | --- | --- |'];
  for (const run of runs) {
    const b = run.build;
    const label = `${int(run.params.chunks)} rows`;
    lines.push(
      `| ${label} | HNSW vector_cosine_ops, partial: not readable_by_everyone (${describeHnsw(b.hnswDefinition)}); unreachable: both graphs | ${mib(b.hnswBytes)} | ${int(Math.round(b.hnswBytes / Math.max(1, b.embeddedRows - (b.everyoneRows ?? 0))))} | ${b.hnswBuildSeconds} | ${pct(b.hnswUnreachable)} |`,
    );
    if (b.halfvecBytes !== null && b.halfvecBuildSeconds !== null) {
      lines.push(
        `| ${label} | HNSW on embedding::halfvec(1536) (${describeHnsw(b.hnswDefinition)}) | ${mib(b.halfvecBytes)} | ${int(Math.round(b.halfvecBytes / b.embeddedRows))} | ${b.halfvecBuildSeconds} | ${pct(b.halfvecUnreachable)} |`,
      );
    }
    if (b.everyoneBytes != null && b.everyoneBuildSeconds != null) {
      lines.push(
        `| ${label} | HNSW partial, readable_by_everyone (${int(b.everyoneRows ?? 0)} rows) | ${mib(b.everyoneBytes)} | ${int(Math.round(b.everyoneBytes / Math.max(1, b.everyoneRows ?? 1)))} | ${b.everyoneBuildSeconds} | |`,
      );
    }
    lines.push(`| ${label} | table with TOAST (vectors stored out of line) | ${mib(b.tableBytes)} | ${int(Math.round(b.tableBytes / b.embeddedRows))} | load ${b.loadSeconds} | |`);
  }
  return lines;
}

/** --flag-flips: what a guild-facts refresh that makes the largest workspace's channel private (and public again) costs, on the ask path and after it. */
function flipTable(run: ScaleResult): string[] {
  const f = run.flagFlips;
  if (!f) return [];
  const jobs = (js: FlagJob[]) => js.map((j) => `${(j.ms / 1000).toFixed(1)} s (${j.batches} batches, longest ${j.longestBatchMs} ms)`).join('; ');
  return [
    `Flag flips on the largest workspace (${int(f.workspaceRows)} passages, ${int(f.rowsPerFlip)} in channel 1), ${f.private.length} times each way. On the ask path: the guild_facts write alone. After it: the everyone_flags job, in batches of ${f.batchSize} rows; meanwhile answers take the by-keys path.`,
    '',
    '| refresh | ask path, ms each run | median ms | everyone_flags job, each run | the same rewrite as one transaction (before 20261202160000, on the ask path) |',
    '| --- | --- | --- | --- | --- |',
    `| channel 1 made private (flags cleared) | ${f.private.map((x) => x.toFixed(1)).join(', ')} | ${median(f.private).toFixed(1)} | ${jobs(f.privateJob)} | ${(f.oneTransaction.private / 1000).toFixed(1)} s |`,
    `| channel 1 made public again (flags set) | ${f.public.map((x) => x.toFixed(1)).join(', ')} | ${median(f.public).toFixed(1)} | ${jobs(f.publicJob)} | ${(f.oneTransaction.public / 1000).toFixed(1)} s |`,
  ];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function scaleTable(report: BenchReport): string[] {
  const s = report.scaleRatio;
  const small = report.runs[0];
  const large = report.runs[report.runs.length - 1];
  if (!s || !small || !large) return [];
  const line = (run: ScaleResult): string => {
    const p = run.onTopic.variants[PROD];
    const r = run.onTopic.variants[REF];
    return `| ${int(run.params.chunks)} rows, ${int(run.params.workspaces)} workspaces | ${ms(p?.p50)} | ${ms(p?.p95)} | ${ms(r?.p50)} | ${ms(r?.p95)} |`;
  };
  return [
    '| on-topic questions, all buckets | p50 ms | p95 ms | reference p50 ms | reference p95 ms |',
    '| --- | --- | --- | --- | --- |',
    line(small),
    line(large),
    `| ratio | ${s.p50.toFixed(2)}× | ${s.p95.toFixed(2)}× | ${s.referenceP50.toFixed(2)}× | ${s.referenceP95.toFixed(2)}× |`,
  ];
}

export function renderMarkdown(report: BenchReport): string {
  const main = report.runs[report.runs.length - 1];
  if (!main) return 'No runs.';
  const out: string[] = [
    `${int(main.params.chunks)} passages (1536-d) in ${int(main.params.workspaces)} workspaces, Zipf s = ${main.params.zipfS}; ` +
      `${main.params.queriesPerBucket} on-topic questions per bucket. Statement latency, warm cache, one connection, as the tenant.`,
    '',
    ...productionTable(main),
    '',
    'Off-topic questions (about what other workspaces saved, on topics this one never touched):',
    '',
    ...offTopicTable(main),
    '',
    'Both paths forced for every workspace size, on-topic questions: the exact path (match_artifacts with its threshold raised), and the index path as plain SQL with iterative scan off or relaxed:',
    '',
    ...approximateTable(main),
  ];
  const audience = audienceTable(main);
  if (audience.length) out.push('', ...audience);
  const everyone = audienceTable(main, EVERYONE_NAME);
  if (everyone.length) out.push('', ...everyone);
  const staff = audienceTable(main, STAFF_NAME);
  if (staff.length) out.push('', ...staff);
  const flips = flipTable(main);
  if (flips.length) out.push('', ...flips);
  const hybrid = main.onTopic.variants[HYBRID];
  if (hybrid) out.push('', `Hybrid (vector and keyword legs, RRF), on-topic: p50 ${ms(hybrid.p50)} ms, p95 ${ms(hybrid.p95)} ms.`);
  const oneCall = main.onTopic.variants[RUNNERS_UP_NAME];
  const twoCalls = main.onTopic.variants[SECOND_CALL_NAME];
  if (hybrid && oneCall && twoCalls) {
    out.push(
      '',
      `/ask's search with 10 runners-up past k = 5, on-topic: one call (runners_up 10) p50 ${ms(oneCall.p50)} ms, p95 ${ms(oneCall.p95)} ms; ` +
        `the two calls it replaced (k, then 15) p50 ${ms(twoCalls.p50)} ms, p95 ${ms(twoCalls.p95)} ms; the k alone p50 ${ms(hybrid.p50)} ms.`,
    );
  }
  out.push(
    '',
    `Reference: ${main.referencePlan === 'hnsw' ? 'the HNSW index' : `plan ${main.referencePlan}`}, recall@5 ${r3(main.referenceRecall.recall)} against exact search of the whole table (${main.referenceRecall.queries} sampled queries).`,
  );
  const scale = scaleTable(report);
  if (scale.length) out.push('', ...scale);
  out.push('', ...indexTable(report.runs));
  const m = report.environment.machine;
  const server = report.environment.server;
  const hits = report.runs.map((r) => `${int(r.params.chunks)} rows ${r.sharedBufferHitRatio === null ? '—' : pct(r.sharedBufferHitRatio)}`).join(', ');
  out.push(
    '',
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}; load average ${m.loadAverageBefore.map((n) => n.toFixed(1)).join(' ')} before, ` +
      `${m.loadAverageAfter.map((n) => n.toFixed(1)).join(' ')} after. Server: ${server.version}, pgvector ${server.pgvector}, shared_buffers ${server.shared_buffers}; ` +
      `shared_buffers hit ratio while timing: ${hits}.`,
    '',
    `Reproduce: \`${report.command}\``,
  );
  return out.join('\n');
}
