import { describe, expect, it } from 'vitest';
import { compareToBaseline } from '../src/baseline.ts';
import { formatReport, reportJson } from '../src/format-report.ts';
import { buildReport, findSummary, scoreQuestion, sourceMatches } from '../src/scoring.ts';
import type { RetrievedSource } from '../src/types.ts';

const file = (fileName: string): RetrievedSource => ({ url: null, fileName });
const url = (u: string): RetrievedSource => ({ url: u, fileName: null });

describe('sourceMatches', () => {
  it('matches a file name or URL ending with an expected name at a path boundary', () => {
    expect(sourceMatches(file('docs/Reference/Hooks.md'), ['Reference/Hooks.md'])).toBe(true);
    expect(sourceMatches(file('Hooks.md'), ['Hooks.md'])).toBe(true);
    expect(sourceMatches(file('docs/Reference/WebHooks.md'), ['Hooks.md'])).toBe(false);
    expect(sourceMatches(file('docs/Guides/Index.md'), ['Reference/Index.md'])).toBe(false);
    expect(sourceMatches(url('https://x.test/docs/Reference/Hooks.md?v=2#onrequest'), ['Reference/Hooks.md'])).toBe(true);
    expect(sourceMatches(url('https://x.test/docs/Reference/Hooks.md'), ['./Reference/Hooks.md'])).toBe(true);
    expect(sourceMatches({ url: null, fileName: null }, ['Hooks.md'])).toBe(false);
  });
});

describe('scoreQuestion', () => {
  const q = { id: 'q1', kind: 'exact', expected_sources: ['Reference/Hooks.md', 'Reference/Lifecycle.md'] };

  it('finds the first passage from any expected source within the top k', () => {
    const ranked = [file('a/Server.md'), file('a/Reference/Lifecycle.md'), file('a/Reference/Hooks.md')];
    expect(scoreQuestion(q, 'hybrid', ranked, 5)).toMatchObject({ hit: true, firstHitRank: 2, reciprocalRank: 0.5 });
  });

  it('counts nothing beyond k', () => {
    const ranked = [file('a/Server.md'), file('a/Routes.md'), file('a/Reference/Hooks.md')];
    expect(scoreQuestion(q, 'vector', ranked, 2)).toMatchObject({ hit: false, firstHitRank: null, reciprocalRank: 0 });
    expect(scoreQuestion(q, 'vector', ranked, 2).retrieved).toEqual(['a/Server.md', 'a/Routes.md']);
  });
});

describe('reports', () => {
  const scores = [
    scoreQuestion({ id: 'a', kind: 'exact', expected_sources: ['X.md'] }, 'hybrid', [file('X.md')], 5),
    scoreQuestion({ id: 'b', kind: 'paraphrase', expected_sources: ['Y.md'] }, 'hybrid', [file('X.md'), file('Y.md')], 5),
    scoreQuestion({ id: 'c', kind: 'paraphrase', expected_sources: ['Z.md'] }, 'hybrid', [file('X.md')], 5),
    scoreQuestion({ id: 'a', kind: 'exact', expected_sources: ['X.md'] }, 'keyword', [], 5),
    scoreQuestion({ id: 'b', kind: 'paraphrase', expected_sources: ['Y.md'] }, 'keyword', [file('Y.md')], 5),
    scoreQuestion({ id: 'c', kind: 'paraphrase', expected_sources: ['Z.md'] }, 'keyword', [file('Q.md'), file('R.md'), file('Z.md')], 5),
  ];
  const report = buildReport(5, scores);

  it('aggregates recall@k and MRR overall and per kind, per mode', () => {
    expect(report.questionCount).toBe(3);
    expect(findSummary(report, 'hybrid')).toMatchObject({ questions: 3, recall: 2 / 3, mrr: (1 + 0.5 + 0) / 3 });
    expect(findSummary(report, 'hybrid', 'paraphrase')).toMatchObject({ questions: 2, recall: 0.5, mrr: 0.25 });
    expect(findSummary(report, 'keyword', 'exact')).toMatchObject({ questions: 1, recall: 0, mrr: 0 });
    expect(findSummary(report, 'keyword')?.mrr).toBeCloseTo((0 + 1 + 1 / 3) / 3);
  });

  it('formats a table with every mode and kind, and lists misses', () => {
    const table = formatReport(report);
    expect(table).toContain('recall@5');
    expect(table).toMatch(/hybrid\s+all\s+all\s+3\s+0\.667\s+0\.500/);
    expect(table).toContain('hybrid: missed c');
    expect(table).toContain('keyword: missed a');
    const json = JSON.parse(reportJson(report));
    expect(json.summary[0]).toEqual({ mode: 'hybrid', split: 'all', kind: 'all', questions: 3, recall: 0.6667, mrr: 0.5 });
  });

  it('fails the baseline only below the published figure minus the tolerance', () => {
    const baseline = { k: 5, modes: { hybrid: { recall: 0.68, mrr: 0.5 }, keyword: { recall: 0.9, mrr: 0.4 } } };
    expect(compareToBaseline(report, baseline, { tolerance: 0.02 })).toEqual([
      { split: 'all', mode: 'keyword', metric: 'recall', published: 0.9, measured: 2 / 3 },
    ]);
    expect(compareToBaseline(report, baseline, { tolerance: 0.01, modes: ['hybrid'] })).toEqual([
      { split: 'all', mode: 'hybrid', metric: 'recall', published: 0.68, measured: 2 / 3 },
    ]);
    expect(() => compareToBaseline(report, { ...baseline, k: 10 })).toThrow(/k = 10/);
  });
});

describe('reports per split', () => {
  const scores = [
    scoreQuestion({ id: 'a', kind: 'exact', expected_sources: ['X.md'], split: 'tune' }, 'hybrid', [file('X.md')], 5),
    scoreQuestion({ id: 'b', kind: 'exact', expected_sources: ['Y.md'], split: 'test' }, 'hybrid', [file('X.md')], 5),
    scoreQuestion({ id: 'c', kind: 'paraphrase', expected_sources: ['Z.md'], split: 'test' }, 'hybrid', [file('Z.md')], 5),
  ];

  it('shows each half beside the whole set, and only the half asked for', () => {
    const all = buildReport(5, scores, 'all');
    expect(findSummary(all, 'hybrid', 'all', 'all')).toMatchObject({ questions: 3, recall: 2 / 3 });
    expect(findSummary(all, 'hybrid', 'all', 'tune')).toMatchObject({ questions: 1, recall: 1 });
    expect(findSummary(all, 'hybrid', 'all', 'test')).toMatchObject({ questions: 2, recall: 0.5 });
    expect(findSummary(all, 'hybrid', 'exact', 'test')).toMatchObject({ questions: 1, recall: 0 });
    const test = buildReport(5, scores.filter((s) => s.split === 'test'), 'test');
    expect([...new Set(test.summary.map((r) => r.split))]).toEqual(['test']);
  });

  it('compares each half with its own published figures', () => {
    const report = buildReport(5, scores, 'all');
    const baseline = { k: 5, modes: { hybrid: { recall: 0.6, mrr: 0.6 } }, splits: { test: { modes: { hybrid: { recall: 0.9, mrr: 0.5 } } } } };
    expect(compareToBaseline(report, baseline, { tolerance: 0.02 })).toEqual([{ split: 'test', mode: 'hybrid', metric: 'recall', published: 0.9, measured: 0.5 }]);
  });
});
