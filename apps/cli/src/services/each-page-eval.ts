import { createHash } from 'node:crypto';
import type { Answerer } from '@brain/answer';
import { saveSource } from '@brain/ingest';
import type { Database } from '@brain/db';
import { buildAnswerReport, pageGroups, runAnswerEval, selectSplit, type AnswerReport, type AnswerScore, type EvalQuestion, type SplitSelection } from '@brain/eval';
import type { Logger } from '@brain/observability';
import { resolveWorkspace } from '../workspace.ts';
import { indexNow } from './index-now.ts';
import type { IngestRuntime } from './ingest.ts';
import type { Target } from './save-targets.ts';

/** A short name for a set of pages: the same pages, the same workspace. */
function pagesKey(pages: readonly string[]): string {
  return createHash('sha256').update(pages.join('\n')).digest('hex').slice(0, 12);
}

export interface EachPageReport {
  /** Workspaces measured: one per set of pages the questions expect. */
  workspaces: number;
  answers: AnswerReport;
}

/**
 * Every answerable question asked in a workspace holding only the pages it expects, as a newcomer
 * who saved that page asks it, and every unanswerable one asked in each of those workspaces: term
 * counts, the generic words and retrieval's k are then those of one page, where a whole manual
 * measures them over hundreds. The workspaces are named after the
 * pages they hold (`<base>-page-<hash>`, whichever questions or split a run measures) and kept, so
 * a second run re-saves unchanged files and indexes nothing.
 */
export async function runEachPageEval(
  deps: { db: Database; runtime: IngestRuntime; logger: Logger },
  input: { baseSlug: string; targets: readonly Target[]; questions: readonly EvalQuestion[]; split: SplitSelection; answerers: readonly Answerer[]; skipped: AnswerReport['skipped'] },
): Promise<EachPageReport> {
  const byName = new Map(input.targets.flatMap((t) => (t.input.kind === 'file' ? [[t.input.fileName, t] as const] : [])));
  const groups = pageGroups(input.questions, input.split, [...byName.keys()]);
  // What no page answers is asked of every page: a newcomer's one page must refuse it too.
  const unanswerable = selectSplit(input.questions, input.split).filter((q) => !q.answerable);
  const scores: AnswerScore[] = [];
  for (const group of groups) {
    const workspace = await resolveWorkspace(deps.db, `${input.baseSlug}-page-${pagesKey(group.pages)}`);
    const ids: string[] = [];
    for (const file of group.files) {
      const target = byName.get(file);
      if (!target) continue;
      const saved = await saveSource(deps.runtime.services.db, { workspaceId: workspace.id, input: target.input, savedBy: 'eval' }, deps.runtime.saveOptions);
      ids.push(...saved.artifacts.map((a) => a.artifactId));
    }
    await indexNow(deps.runtime, ids, false, deps.logger);
    const report = await runAnswerEval(
      { db: deps.db, embedder: deps.runtime.services.embedder, logger: deps.logger.child({ component: 'answer' }) },
      { workspaceId: workspace.id, questions: [...group.questions, ...unanswerable], answerers: input.answerers, split: input.split },
    );
    scores.push(...report.results.map((r) => ({ ...r, pages: group.pages })));
  }
  return { workspaces: groups.length, answers: buildAnswerReport(scores, input.split, input.skipped) };
}
