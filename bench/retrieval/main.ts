// npm run bench:retrieval -- --help
// Retrieval at scale: match_artifacts (as the tenant) against the raw HNSW query and exact search.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { SHAPE } from './dataset-plan.ts';
import { parseOptions, UsageError, type BenchOptions } from './options.ts';
import { renderMarkdown, scaleRatio, type BenchReport, type Environment } from './report.ts';
import { runScale, SHAPE_VERSION, type ScaleResult } from './run-scale.ts';

async function serverFacts(adminUrl: string): Promise<Record<string, string>> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<Record<string, string>[]>`
      select version(),
             (select default_version from pg_available_extensions where name = 'vector') as pgvector,
             current_setting('shared_buffers') as shared_buffers,
             current_setting('work_mem') as work_mem,
             current_setting('effective_cache_size') as effective_cache_size,
             current_setting('max_parallel_maintenance_workers') as max_parallel_maintenance_workers,
             current_setting('jit') as jit`;
    return row ?? {};
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function commandLine(options: BenchOptions): string {
  return ['npm run bench:retrieval', ...(options.argv.length ? ['--', ...options.argv] : [])].join(' ');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const log = (line: string): void => console.error(line);
  const loadAverageBefore = loadavg();
  const server = await serverFacts(options.adminUrl);

  const base = {
    workspaces: options.workspaces,
    chunks: options.chunks,
    zipfS: options.zipfS,
    seed: options.seed,
    queriesPerBucket: options.queriesPerBucket,
    hnswEfConstruction: options.hnswEfConstruction,
  };
  const runs: ScaleResult[] = [];
  const scaleOptions = { adminUrl: options.adminUrl, maintenanceWorkMem: options.maintenanceWorkMem, hybrid: options.hybrid, audience: options.audience, keep: options.keep, reuse: options.reuse, flagFlips: options.flagFlips, log };
  if (options.compareScale > 0) {
    const small = {
      ...base,
      workspaces: Math.max(1, Math.round(options.workspaces * options.compareScale)),
      chunks: Math.round(options.chunks * options.compareScale),
      halfvec: false,
    };
    runs.push(await runScale(small, scaleOptions));
  }
  runs.push(await runScale({ ...base, halfvec: options.halfvec }, scaleOptions));

  const cpuList = cpus();
  const environment: Environment = {
    machine: {
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 1024 ** 3),
      node: process.version,
      loadAverageBefore,
      loadAverageAfter: loadavg(),
    },
    server,
  };
  const small = runs.length > 1 ? runs[0] : undefined;
  const large = runs[runs.length - 1];
  const report: BenchReport = {
    benchmark: 'retrieval',
    generatedAt: new Date().toISOString(),
    command: commandLine(options),
    environment,
    shape: { ...SHAPE, version: SHAPE_VERSION },
    runs,
    scaleRatio: small && large ? scaleRatio(small, large) : null,
  };

  mkdirSync(options.outDir, { recursive: true });
  const stamp = report.generatedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const file = join(options.outDir, `retrieval-${stamp}.json`);
  writeFileSync(file, json);
  writeFileSync(join(options.outDir, 'retrieval-latest.json'), json);
  console.log(renderMarkdown(report));
  console.log(`\nResults: ${file} (and retrieval-latest.json)`);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(error.message);
    process.exitCode = 2;
    return;
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
