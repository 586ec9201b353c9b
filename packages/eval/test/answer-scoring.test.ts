import { describe, expect, it } from 'vitest';
import { buildAnswerReport, containsAnswer, findAnswerSummary, leadOf } from '../src/answer-scoring.ts';
import type { AnswerScore } from '../src/answer-types.ts';
import { compareAnswersToBaseline } from '../src/baseline.ts';
import { answerReportValue, formatAnswerReport } from '../src/format-answer-report.ts';

describe('containsAnswer', () => {
  it('ignores case, runs of whitespace, code backticks and typographic quotes, nothing else', () => {
    expect(containsAnswer('> In the default configuration it must be shorter than `8000`\n bytes. [1]', ['8000 bytes'])).toBe(true);
    expect(containsAnswer('The DEFAULT is (", ", ": ")', ['the default is (", ", ": ")'])).toBe(true);
    expect(containsAnswer('a loop’s else clause', ["loop's else"])).toBe(true);
    expect(containsAnswer('shorter than 800 bytes', ['8000 bytes'])).toBe(false);
    expect(containsAnswer('maxsize=128', ['max size 128'])).toBe(false);
    expect(containsAnswer('anything', ['', '  '])).toBe(false);
  });
});

describe('leadOf', () => {
  it("takes an extractive answer's quotations of the first passage it cites, with their code, and a model's first paragraph", () => {
    const extractive = [
      'Extractive answer (no language model is configured, …):',
      '> PowerShell (VS Code default) [1]',
      '> PowerShell uses different syntax to set environment variables. [1]',
      '```cmd',
      '$env:DEBUG = "*,-not_this"',
      '```',
      '> On Windows the environment variable is set using the `set` command. [2]',
      '> Then, run the program to be debugged as usual. [1]',
    ].join('\n');
    expect(leadOf(extractive)).toBe(extractive.split('\n').slice(1, 6).join('\n'));
    expect(containsAnswer(leadOf(extractive), ['$env:DEBUG'])).toBe(true);
    expect(containsAnswer(leadOf(extractive), ['`set` command'])).toBe(false);
    expect(leadOf('It must be shorter than 8000 bytes [1].\n\nSee also [2].')).toBe('It must be shorter than 8000 bytes [1].');
  });
});

function score(fields: Partial<AnswerScore> & Pick<AnswerScore, 'id' | 'kind' | 'answerable' | 'grounded'>): AnswerScore {
  return {
    split: 'test',
    answerer: 'extractive',
    correct: fields.answerable ? fields.grounded : null,
    citedExpected: fields.answerable ? fields.grounded : null,
    cited: [],
    answer: fields.grounded ? '> quoted [1]' : 'No grounded sources found.',
    error: null,
    ...fields,
  };
}

describe('answer reports', () => {
  const scores: AnswerScore[] = [
    score({ id: 'e1', kind: 'exact', answerable: true, grounded: true, split: 'tune', leads: true }),
    score({ id: 'e2', kind: 'exact', answerable: true, grounded: true, correct: false, citedExpected: true }),
    score({ id: 'p1', kind: 'paraphrase', answerable: true, grounded: false }),
    // Right, but the gold string is in a later quotation than the first.
    score({ id: 'p2', kind: 'paraphrase', answerable: true, grounded: true, correct: true, leads: false, citedExpected: false }),
    score({ id: 'u1', kind: 'unanswerable', answerable: false, grounded: false, split: 'tune' }),
    score({ id: 'u2', kind: 'unanswerable', answerable: false, grounded: true }),
    score({ id: 'u3', kind: 'unanswerable', answerable: false, grounded: false, error: 'ANSWER_TIMEOUT' }),
  ];
  const report = buildAnswerReport(scores, 'all');

  it('reports accuracy, cited sources and both kinds of refusal, per split and per kind', () => {
    expect(findAnswerSummary(report, 'extractive', 'all')).toEqual({
      answerer: 'extractive',
      split: 'all',
      kind: 'all',
      answerable: 4,
      unanswerable: 3,
      accuracy: 2 / 4,
      leads: 1 / 4,
      citedExpected: 2 / 4,
      goldInContext: 0,
      wronglyRefused: 1 / 4,
      // An error is not a refusal: only u1 refused.
      refusedUnanswerable: 1 / 3,
      errors: 1,
    });
    expect(findAnswerSummary(report, 'extractive', 'test', 'exact')).toMatchObject({ answerable: 1, accuracy: 0, citedExpected: 1 });
    expect(findAnswerSummary(report, 'extractive', 'tune')).toMatchObject({ answerable: 1, unanswerable: 1, accuracy: 1, refusedUnanswerable: 1 });
    expect(findAnswerSummary(report, 'extractive', 'all', 'unanswerable')).toMatchObject({ accuracy: null, wronglyRefused: null, refusedUnanswerable: 1 / 3 });
  });

  it('prints the table, the skipped answerers and, on demand, every failure with its reason', () => {
    const text = formatAnswerReport({ ...report, skipped: [{ answerer: 'chat', reason: 'no chat model configured' }] }, { misses: true });
    expect(text).toMatch(/extractive\s+all\s+all\s+4\s+3\s+0\.500\s+0\.250\s+0\.000\s+0\.500\s+0\.250\s+0\.333\s+1/);
    expect(text).toContain('chat: skipped (no chat model configured)');
    expect(text).toContain('e2 [test]: no gold string');
    expect(text).toContain('p1 [test]: refused');
    expect(text).toContain('p2 [test]: no expected source cited');
    expect(text).toContain('u2 [test]: answered an unanswerable question');
    expect(text).toContain('u3 [test]: error ANSWER_TIMEOUT');
    expect(text).not.toContain('e1 [');
    expect(text).not.toContain('u1 [');
    const json = answerReportValue(report) as { summary: { refusedUnanswerable: number | null }[] };
    expect(json.summary[0]?.refusedUnanswerable).toBe(0.3333);
  });

  it('fails the baseline when a figure falls, or wrong refusals rise, beyond the tolerance', () => {
    const baseline = {
      k: 5,
      modes: {},
      answerTolerance: { refusedUnanswerable: 0.2 },
      answers: { extractive: { accuracy: 0.5, leads: 0.3, citedExpected: 0.8, wronglyRefused: 0.2, refusedUnanswerable: 0.5 } },
      splits: { tune: { answers: { extractive: { accuracy: 1 } } }, test: { answers: { chat: { accuracy: 1 } } } },
    };
    expect(compareAnswersToBaseline(report, baseline)).toEqual([
      // The fact quoted first in 1 of 4 answers, against a published 0.3.
      { split: 'all', answerer: 'extractive', metric: 'leads', published: 0.3, measured: 0.25, tolerance: 0.02 },
      { split: 'all', answerer: 'extractive', metric: 'citedExpected', published: 0.8, measured: 0.5, tolerance: 0.02 },
      { split: 'all', answerer: 'extractive', metric: 'wronglyRefused', published: 0.2, measured: 0.25, tolerance: 0.02 },
    ]);
    // The chat answerer was not measured, so its published figure is not a regression.
    expect(compareAnswersToBaseline(report, { ...baseline, answers: {} })).toEqual([]);
  });
});
