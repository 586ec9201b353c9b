import { AppError } from '@brain/errors';
import { sourceMatches } from './scoring.ts';
import { selectSplit } from './select-split.ts';
import type { EvalQuestion, SplitSelection } from './types.ts';

/** Answerable questions that expect the same pages, and the corpus files that are those pages. */
export interface PageGroup {
  /** The expected sources the group's questions share, sorted. */
  pages: string[];
  /** The corpus files (names relative to the corpus folder) that match them. */
  files: string[];
  questions: EvalQuestion[];
}

/**
 * The questions of a split grouped by the pages they expect, each with the corpus files that are
 * those pages: what a newcomer saves before asking them. Unanswerable questions expect no page and
 * are left out (they are measured over the whole corpus). Groups come in the order of their pages.
 * EVAL_PAGE_MISSING when an expected page is no corpus file: that group could not be measured as asked.
 */
export function pageGroups(questions: readonly EvalQuestion[], split: SplitSelection, corpusFiles: readonly string[]): PageGroup[] {
  const byPages = new Map<string, PageGroup>();
  for (const q of selectSplit(questions, split)) {
    if (!q.answerable || q.expected_sources.length === 0) continue;
    const pages = [...new Set(q.expected_sources)].sort();
    const key = JSON.stringify(pages);
    let group = byPages.get(key);
    if (!group) {
      const files = corpusFiles.filter((file) => sourceMatches({ url: null, fileName: file }, pages));
      const missing = pages.filter((page) => !files.some((file) => sourceMatches({ url: null, fileName: file }, [page])));
      if (missing.length > 0) {
        throw new AppError({
          code: 'EVAL_PAGE_MISSING',
          message: `Question "${q.id}" expects ${missing.join(', ')}, which no file of the corpus folder is.`,
          nextStep: 'Give --corpus the folder the set was written for (its expected_sources are file names relative to it), or measure without --each-page.',
          details: { questionId: q.id, missing },
        });
      }
      group = { pages, files, questions: [] };
      byPages.set(key, group);
    }
    group.questions.push(q);
  }
  const key = (g: PageGroup) => g.pages.join('\n');
  return [...byPages.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

