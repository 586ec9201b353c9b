// npm run bench startup [-- --runs 9]
// What one `brain` command costs to start: the compiled bundle (apps/cli/bin/compiled-main.js, the
// default) against the sources through tsx's loader (BRAIN_COMPILE=off), measured in the same run,
// alternating, on `brain --help` (imports every command), `brain sources` (one command and the
// embedded database, in a data directory migrated beforehand) and `brain save <page> --wait` (a new
// small HTML page each run: the database's thread, the ingestion thread and the extraction sandbox,
// which start from their compiled entries too). CPU is the child's user + system
// time, read from this process's children's times in /proc (Linux only); wall is the spawn's.
// The first compile is not among the runs (one unmeasured run compiles first). Writes
// bench/results/startup-*.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
const runs = Number(args.runs);
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = path.join(root, 'apps/cli/bin/brain.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-bench-startup-'));
const TICKS_PER_SECOND = 100;

/** This process's waited-for children's user + system CPU seconds (fields 16 and 17 of /proc/self/stat). */
function childrenCpu(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

function run(command: string[], compiled: boolean): { cpu: number; wall: number } {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', BRAIN_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(compiled ? {} : { BRAIN_COMPILE: 'off' }) };
  const cpuBefore = childrenCpu();
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, ...command], { env, encoding: 'utf8' });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`brain ${command.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { cpu: childrenCpu() - cpuBefore, wall };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

run(['migrate'], true);
const results: Record<string, { compiled: { cpu: number; wall: number }; tsx: { cpu: number; wall: number } }> = {};
const pages = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-bench-pages-'));
let pageCount = 0;
/** A page never saved before, so that every save extracts, chunks and embeds. */
function newPage(): string {
  const file = path.join(pages, `page-${++pageCount}.html`);
  fs.writeFileSync(file, `<html><head><title>Page ${pageCount}</title></head><body><h1>Limits ${pageCount}</h1><p>The payload of message ${pageCount} must be shorter than ${pageCount * 8} bytes.</p></body></html>`);
  return file;
}
const commands: { name: string; argv: () => string[] }[] = [
  { name: 'brain --help', argv: () => ['--help'] },
  { name: 'brain sources', argv: () => ['sources'] },
  { name: 'brain save <page> --wait', argv: () => ['save', newPage(), '--wait'] },
];
for (const command of commands) {
  const samples = { compiled: [] as { cpu: number; wall: number }[], tsx: [] as { cpu: number; wall: number }[] };
  for (let i = 0; i < runs; i++) {
    samples.compiled.push(run(command.argv(), true));
    samples.tsx.push(run(command.argv(), false));
  }
  const summary = (s: { cpu: number; wall: number }[]) => ({ cpu: median(s.map((x) => x.cpu)), wall: Number(median(s.map((x) => x.wall)).toFixed(3)) });
  results[command.name] = { compiled: summary(samples.compiled), tsx: summary(samples.tsx) };
}
fs.rmSync(dataDir, { recursive: true, force: true });
fs.rmSync(pages, { recursive: true, force: true });

const report = { bench: 'startup', at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, runs, medians: results };
const out = path.join(root, 'bench/results', `startup-${report.at.replaceAll(':', '-').replace('.', '-')}.json`);
fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
fs.writeFileSync(path.join(root, 'bench/results/startup-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
for (const [name, r] of Object.entries(results)) {
  console.log(`${name}: compiled ${r.compiled.cpu.toFixed(2)} CPU s, ${r.compiled.wall.toFixed(2)} s; through tsx ${r.tsx.cpu.toFixed(2)} CPU s, ${r.tsx.wall.toFixed(2)} s (medians of ${runs})`);
}
console.log(`written to ${path.relative(root, out)}`);
