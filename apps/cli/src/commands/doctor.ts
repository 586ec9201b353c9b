import type { Command } from 'commander';
import { createLogger } from '@brain/observability';
import { pino } from 'pino';
import { readEnvironment } from '../context.ts';
import { runDoctor, type DoctorReport } from '../doctor/run-doctor.ts';
import { print } from '../output.ts';

const MARK = { pass: '✓', warn: '!', fail: '✗', skip: '–' } as const;

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check this configuration end to end (database, pgvector, migrations, embeddings, Discord, Stripe, public URL)')
    .option('--json', 'print JSON')
    .option('--timeout <ms>', 'give up on each network probe after this long', (v) => Number.parseInt(v, 10), 5_000)
    .action(async (options: { json?: boolean; timeout: number }) => {
      // The checks report problems themselves: library logs would only repeat them.
      const logger = createLogger({ level: 'error', name: 'brain-doctor', destination: pino.destination(2) });
      const report = await runDoctor({ env: readEnvironment(), cwd: process.cwd(), logger, timeoutMs: options.timeout });
      if (options.json) print.json(report);
      else printReport(report);
      if (!report.ok) process.exitCode = 1;
    });
}

function printReport(report: DoctorReport): void {
  for (const check of report.checks) {
    print.line(`${MARK[check.status]} ${check.title}: ${check.detail}`);
    if (check.nextStep) print.line(`    → ${check.nextStep}`);
  }
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  const warned = report.checks.filter((c) => c.status === 'warn').length;
  const warnings = warned === 0 ? '' : ` ${warned} warning(s): see the next step under each.`;
  print.line(failed === 0 ? `\nAll checks passed.${warnings}` : `\n${failed} check(s) failed: fix them in order (a later one may depend on an earlier one).${warnings}`);
}
