import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { createExtractiveAnswerer, type Answerer } from '@brain/answer';
import type { BrainConfig } from '@brain/config';
import { AppError, coerceError } from '@brain/errors';
import {
  answerReportValue,
  compareAnswersToBaseline,
  compareToBaseline,
  formatAnswerReport,
  formatReport,
  parseQuestions,
  reportValue,
  RETRIEVAL_MODES,
  runAnswerEval,
  runEval,
  SPLIT_SELECTIONS,
  type AnswerBaselineFailure,
  type AnswerReport,
  type EvalBaseline,
  type RetrievalMode,
  type SplitSelection,
} from '@brain/eval';
import { saveSource } from '@brain/ingest';
import { compose } from '../compose.ts';
import { withStoredEmbeddingModel } from '../services/stored-embedding-model.ts';
import { cliLogger, openConfiguredDatabase, readConfig } from '../context.ts';
import { print } from '../output.ts';
import { buildAnswerer } from '../services/answering.ts';
import { indexNow } from '../services/index-now.ts';
import type { IngestRuntime } from '../services/ingest.ts';
import { runEachPageEval } from '../services/each-page-eval.ts';
import { expandTarget, type Target } from '../services/save-targets.ts';
import { resolveWorkspace } from '../workspace.ts';

interface EvalOptions {
  questions: string;
  corpus?: string;
  workspace?: string;
  k: string;
  mode?: RetrievalMode;
  split: SplitSelection;
  answers?: boolean;
  baseline?: string;
  misses?: boolean;
  json?: boolean;
  eachPage?: boolean;
}

export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('measure retrieval (recall@k and MRR per mode) and, with --answers, the answers themselves, per split and per kind of question, from a JSONL question set')
    .requiredOption('--questions <file>', 'JSONL, one {"id", "question", "expected_sources": [file name or URL], "kind", "answers"?, "split"?, "answerable"?} per line')
    .option('--corpus <dir>', 'save and index this folder first (into workspace "eval" unless --workspace is given)')
    .option('--workspace <slug>', 'workspace to measure (default: local, or eval with --corpus)')
    .option('--k <n>', 'passages per question', '5')
    .option('--mode <mode>', `one of ${RETRIEVAL_MODES.join(', ')} (default: all three)`)
    .option('--split <split>', `questions to measure: ${SPLIT_SELECTIONS.join(', ')} (all also shows each half)`, 'all')
    .option('--answers', 'also answer every question through ask (extractive; and the chat model when OPENAI_API_KEY is set) and score the answers against their gold strings')
    .option('--baseline <file>', 'fail (exit 1) when a figure falls more than its tolerance below these published figures (answer figures need --answers)')
    .option('--misses', 'list the questions each mode missed (and, with --answers, each wrong answer)')
    .option('--json', 'print the report as JSON')
    .option('--each-page', 'with --corpus and --answers: ask each answerable question in a workspace holding only the pages it expects (<workspace>-page-<hash>), as a newcomer who saved that page would, and each unanswerable one in every such workspace; no retrieval figures')
    .action(async (options: EvalOptions) => {
      const k = Number.parseInt(options.k, 10);
      if (!Number.isInteger(k) || k < 1 || k > 50) throw new AppError({ code: 'EVAL_K_INVALID', message: `--k must be a whole number from 1 to 50, got "${options.k}".` });
      if (options.mode && !RETRIEVAL_MODES.includes(options.mode)) {
        throw new AppError({ code: 'EVAL_MODE_INVALID', message: `Unknown mode "${options.mode}".`, nextStep: `Use one of: ${RETRIEVAL_MODES.join(', ')}.` });
      }
      if (!SPLIT_SELECTIONS.includes(options.split)) {
        throw new AppError({ code: 'EVAL_SPLIT_INVALID', message: `Unknown split "${options.split}".`, nextStep: `Use one of: ${SPLIT_SELECTIONS.join(', ')}.` });
      }
      if (options.eachPage && !(options.corpus && options.answers)) {
        throw new AppError({
          code: 'EVAL_EACH_PAGE_INVALID',
          message: '--each-page saves each question\'s pages from the corpus and measures answers only.',
          nextStep: 'Give it with --corpus <dir> and --answers.',
        });
      }
      const questions = parseQuestions(readInput(options.questions, 'questions'), path.basename(options.questions));
      const baseline = options.baseline ? (JSON.parse(readInput(options.baseline, 'baseline')) as EvalBaseline) : undefined;

      const config = readConfig();
      const logger = cliLogger(config, 'brain-eval');
      const db = await openConfiguredDatabase(config, 'eval');
      const app = compose(await withStoredEmbeddingModel(config, db, logger), db, logger);
      const runtime = app.ingest();
      try {
        const workspace = await resolveWorkspace(db, options.workspace ?? (options.corpus ? 'eval' : undefined));
        await app.checkStartup();
        if (options.eachPage && options.corpus) {
          const { answerers, skipped } = answerersToMeasure(config);
          const measured = await runEachPageEval(
            { db, runtime, logger },
            { baseSlug: workspace.slug, targets: corpusTargets(options.corpus), questions, split: options.split, answerers, skipped },
          );
          if (options.json) print.line(JSON.stringify({ eachPage: { workspaces: measured.workspaces }, answers: answerReportValue(measured.answers) }, null, 2));
          else print.line(`Answers page by page: each answerable question over only the pages it expects, each unanswerable one over every such set (${measured.workspaces} workspace${measured.workspaces === 1 ? '' : 's'})\n${formatAnswerReport(measured.answers, { misses: Boolean(options.misses) })}`);
          if (baseline) reportAnswerFailures(compareAnswersToBaseline(measured.answers, baseline));
          return;
        }
        if (options.corpus) await loadCorpus(options.corpus, workspace.id, runtime, logger, !options.json);

        const report = await runEval(
          { db, embedder: runtime.services.embedder },
          { workspaceId: workspace.id, questions, k, split: options.split, ...(options.mode ? { modes: [options.mode] } : {}) },
        );
        let answers: AnswerReport | undefined;
        if (options.answers) {
          const { answerers, skipped } = answerersToMeasure(config);
          answers = await runAnswerEval(
            { db, embedder: runtime.services.embedder, logger: logger.child({ component: 'answer' }) },
            { workspaceId: workspace.id, questions, answerers, split: options.split, skipped },
          );
        }
        if (options.json) {
          print.line(JSON.stringify(answers ? { ...(reportValue(report) as object), answers: answerReportValue(answers) } : reportValue(report), null, 2));
        } else {
          print.line(formatReport(report, { misses: Boolean(options.misses) }));
          if (answers) print.line(`\nAnswers\n${formatAnswerReport(answers, { misses: Boolean(options.misses) })}`);
        }

        if (baseline) {
          const tolerance = baseline.tolerance ?? 0.02;
          const failures = compareToBaseline(report, baseline, { tolerance, ...(options.mode ? { modes: [options.mode] } : {}) });
          for (const f of failures) {
            process.stderr.write(`✗ ${f.split === 'all' ? '' : `[${f.split} half] `}${f.mode} ${f.metric} ${f.measured.toFixed(3)} is below the published ${f.published.toFixed(3)} (tolerance ${tolerance})\n`);
          }
          if (failures.length > 0) process.exitCode = 1;
          if (answers) reportAnswerFailures(compareAnswersToBaseline(answers, baseline));
        }
      } finally {
        await app.close();
        await db.close();
      }
    });
}

/** The extractive answerer always; the chat answerer too when one is configured (what /ask would use). */
function answerersToMeasure(config: BrainConfig): { answerers: Answerer[]; skipped: AnswerReport['skipped'] } {
  const configured = buildAnswerer(config);
  if (configured.kind === 'llm') return { answerers: [createExtractiveAnswerer(), configured], skipped: [] };
  return {
    answerers: [configured],
    skipped: [{ answerer: 'chat', reason: 'no chat model configured: set OPENAI_API_KEY (and CHAT_MODEL to choose the model) to measure it too' }],
  };
}

function readInput(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new AppError({ code: 'EVAL_FILE_UNREADABLE', message: `Cannot read the ${what} file ${file}: ${coerceError(error).message}`, nextStep: 'Check the path.' });
  }
}

/** Each answer figure below its baseline (wrong refusals: above), on stderr, and a failing exit code. */
function reportAnswerFailures(failures: readonly AnswerBaselineFailure[]): void {
  for (const f of failures) {
    const direction = f.metric === 'wronglyRefused' ? 'above' : 'below';
    process.stderr.write(`✗ ${f.split === 'all' ? '' : `[${f.split} half] `}${f.answerer} ${f.metric} ${f.measured.toFixed(3)} is ${direction} the published ${f.published.toFixed(3)} (tolerance ${f.tolerance})\n`);
  }
  if (failures.length > 0) process.exitCode = 1;
}

/** Every document under the folder, named by its path inside it. */
function corpusTargets(dir: string): Target[] {
  const targets = expandTarget(dir, undefined);
  if (targets.length === 0) throw new AppError({ code: 'EVAL_CORPUS_EMPTY', message: `No .html, .htm, .pdf, .md or .txt files under ${dir}.` });
  return targets;
}

/** Saves every document under the folder (named by its path inside it) and indexes what changed. */
async function loadCorpus(dir: string, workspaceId: string, runtime: IngestRuntime, logger: ReturnType<typeof cliLogger>, progress: boolean): Promise<void> {
  const targets = corpusTargets(dir);
  const ids: string[] = [];
  for (const target of targets) {
    const saved = await saveSource(runtime.services.db, { workspaceId, input: target.input, savedBy: 'eval' }, runtime.saveOptions);
    ids.push(...saved.artifacts.map((a) => a.artifactId));
  }
  await indexNow(runtime, ids, progress, logger);
}
