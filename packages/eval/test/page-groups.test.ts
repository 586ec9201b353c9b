import { describe, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { pageGroups } from '../src/page-groups.ts';
import type { EvalQuestion } from '../src/types.ts';

const q = (id: string, expected: string[], extra: Partial<EvalQuestion> = {}): EvalQuestion => ({
  id,
  question: `${id}?`,
  expected_sources: expected,
  kind: 'exact',
  answerable: expected.length > 0,
  split: 'tune',
  ...extra,
});

const files = ['library/csv.html', 'library/json.html', 'sql-notify.html', 'Reference/Errors.md', 'Reference/Server.md'];

describe('pageGroups', () => {
  it('groups the answerable questions of a split by the pages they expect, with the corpus files that are those pages', () => {
    const groups = pageGroups(
      [
        q('json-a', ['library/json.html']),
        q('notify', ['sql-notify.html']),
        q('json-b', ['json.html']),
        q('both', ['Reference/Server.md', 'Reference/Errors.md']),
        q('both-again', ['Reference/Errors.md', 'Reference/Server.md']),
        q('refusal', []),
        q('json-test', ['library/json.html'], { split: 'test' }),
      ],
      'tune',
      files,
    );
    expect(groups.map((g) => ({ pages: g.pages, files: g.files, ids: g.questions.map((x) => x.id) }))).toEqual([
      { pages: ['Reference/Errors.md', 'Reference/Server.md'], files: ['Reference/Errors.md', 'Reference/Server.md'], ids: ['both', 'both-again'] },
      // Written two ways, the same page is still two groups: each question's own pages, as written.
      { pages: ['json.html'], files: ['library/json.html'], ids: ['json-b'] },
      { pages: ['library/json.html'], files: ['library/json.html'], ids: ['json-a'] },
      { pages: ['sql-notify.html'], files: ['sql-notify.html'], ids: ['notify'] },
    ]);
    expect(pageGroups([q('json-test', ['library/json.html'], { split: 'test' })], 'all', files)).toHaveLength(1);
  });

  it('refuses, naming the question and the page, when an expected page is no file of the corpus', () => {
    let caught: unknown;
    try {
      pageGroups([q('gone', ['library/json.html', 'library/pickle.html'])], 'all', files);
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught, 'EVAL_PAGE_MISSING')).toBe(true);
    expect((caught as Error).message).toContain('"gone" expects library/pickle.html');
    // A file name that only ends like the page is not the page.
    expect(() => pageGroups([q('csv', ['sv.html'])], 'all', ['library/csv.html'])).toThrow(/expects sv\.html/);
  });
});
