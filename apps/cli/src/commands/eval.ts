import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { AppError, coerceError } from '@brain/errors';
import { compareToBaseline, formatReport, parseQuestions, reportJson, RETRIEVAL_MODES, runEval, type EvalBaseline, type RetrievalMode } from '@brain/eval';
import { saveSource } from '@brain/ingest';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { indexNow } from '../services/index-now.ts';
import { buildIngestRuntime } from '../services/ingest.ts';
import { expandTarget } from '../services/save-targets.ts';
import { checkEmbeddingModelAtStartup } from '../services/startup-checks.ts';
import { resolveWorkspace } from '../workspace.ts';

interface EvalOptions {
  questions: string;
  corpus?: string;
  workspace?: string;
  k: string;
  mode?: RetrievalMode;
  baseline?: string;
  misses?: boolean;
  json?: boolean;
}

export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('measure retrieval: recall@k and MRR per mode and per kind of question, from a JSONL question set')
    .requiredOption('--questions <file>', 'JSONL, one {"id", "question", "expected_sources": [file name or URL], "kind"} per line')
    .option('--corpus <dir>', 'save and index this folder first (into workspace "eval" unless --workspace is given)')
    .option('--workspace <slug>', 'workspace to measure (default: local, or eval with --corpus)')
    .option('--k <n>', 'passages per question', '5')
    .option('--mode <mode>', `one of ${RETRIEVAL_MODES.join(', ')} (default: all three)`)
    .option('--baseline <file>', 'fail (exit 1) when a mode falls more than its tolerance below these published figures')
    .option('--misses', 'list the questions each mode missed')
    .option('--json', 'print the report as JSON')
    .action(async (options: EvalOptions) => {
      const k = Number.parseInt(options.k, 10);
      if (!Number.isInteger(k) || k < 1 || k > 50) throw new AppError({ code: 'EVAL_K_INVALID', message: `--k must be a whole number from 1 to 50, got "${options.k}".` });
      if (options.mode && !RETRIEVAL_MODES.includes(options.mode)) {
        throw new AppError({ code: 'EVAL_MODE_INVALID', message: `Unknown mode "${options.mode}".`, nextStep: `Use one of: ${RETRIEVAL_MODES.join(', ')}.` });
      }
      const questions = parseQuestions(readInput(options.questions, 'questions'), path.basename(options.questions));
      const baseline = options.baseline ? (JSON.parse(readInput(options.baseline, 'baseline')) as EvalBaseline & { tolerance?: number }) : undefined;

      const config = readConfig();
      const logger = cliLogger(config, 'brain-eval');
      const db = await openConfiguredDatabase(config, 'eval');
      const runtime = buildIngestRuntime(config, db, logger);
      try {
        const workspace = await resolveWorkspace(db, options.workspace ?? (options.corpus ? 'eval' : undefined));
        await checkEmbeddingModelAtStartup(db, runtime.services.embedder.model, logger);
        if (options.corpus) await loadCorpus(options.corpus, workspace.id, runtime, logger, !options.json);

        const report = await runEval(
          { db, embedder: runtime.services.embedder },
          { workspaceId: workspace.id, questions, k, ...(options.mode ? { modes: [options.mode] } : {}) },
        );
        if (options.json) print.line(reportJson(report));
        else print.line(formatReport(report, { misses: Boolean(options.misses) }));

        if (baseline) {
          const failures = compareToBaseline(report, baseline, { tolerance: baseline.tolerance ?? 0.02, ...(options.mode ? { modes: [options.mode] } : {}) });
          for (const f of failures) {
            process.stderr.write(`✗ ${f.mode} ${f.metric} ${f.measured.toFixed(3)} is below the published ${f.published.toFixed(3)} (tolerance ${baseline.tolerance ?? 0.02})\n`);
          }
          if (failures.length > 0) process.exitCode = 1;
        }
      } finally {
        await runtime.close();
        await db.close();
      }
    });
}

function readInput(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new AppError({ code: 'EVAL_FILE_UNREADABLE', message: `Cannot read the ${what} file ${file}: ${coerceError(error).message}`, nextStep: 'Check the path.' });
  }
}

/** Saves every document under the folder (named by its path inside it) and indexes what changed. */
async function loadCorpus(dir: string, workspaceId: string, runtime: ReturnType<typeof buildIngestRuntime>, logger: ReturnType<typeof cliLogger>, progress: boolean): Promise<void> {
  const targets = expandTarget(dir, undefined);
  if (targets.length === 0) throw new AppError({ code: 'EVAL_CORPUS_EMPTY', message: `No .html, .htm, .pdf, .md or .txt files under ${dir}.` });
  const ids: string[] = [];
  for (const target of targets) {
    const saved = await saveSource(runtime.services.db, { workspaceId, input: target.input, savedBy: 'eval' }, runtime.saveOptions);
    ids.push(...saved.artifacts.map((a) => a.artifactId));
  }
  await indexNow(runtime, ids, progress, logger);
}
