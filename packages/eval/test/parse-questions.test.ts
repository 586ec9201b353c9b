import { describe, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { parseQuestions } from '../src/parse-questions.ts';

describe('parseQuestions', () => {
  it('reads one question per line, skipping blank and comment lines', () => {
    const text = [
      '// fastify docs',
      '{"id":"a","question":"What is bodyLimit?","expected_sources":["Reference/Server.md"],"kind":"exact"}',
      '',
      '{"id":"b","question":"How big can a request be?","expected_sources":["Reference/Server.md"],"kind":"paraphrase","note":"ignored"}',
    ].join('\n');
    expect(parseQuestions(text)).toEqual([
      { id: 'a', question: 'What is bodyLimit?', expected_sources: ['Reference/Server.md'], kind: 'exact' },
      { id: 'b', question: 'How big can a request be?', expected_sources: ['Reference/Server.md'], kind: 'paraphrase' },
    ]);
  });

  it('reports every bad line with its number in one error', () => {
    const text = [
      '{"id":"a","question":"q","expected_sources":["x"],"kind":"exact"}',
      'not json',
      '{"id":"a","question":"q","expected_sources":["x"],"kind":"exact"}',
      '{"id":"c","question":"","expected_sources":["x"],"kind":"exact"}',
      '{"id":"d","question":"q","expected_sources":[],"kind":"exact"}',
    ].join('\n');
    try {
      parseQuestions(text, 'set.jsonl');
      expect.unreachable();
    } catch (error) {
      expect(isAppError(error, 'EVAL_QUESTIONS_INVALID')).toBe(true);
      const problems = (error as { details: { problems: string[] } }).details.problems;
      expect(problems).toEqual([
        'set.jsonl:2: not valid JSON',
        'set.jsonl:3: duplicate id "a"',
        'set.jsonl:4: "question" must be a non-empty string',
        'set.jsonl:5: "expected_sources" must be a non-empty array of file names or URLs',
      ]);
    }
  });

  it('refuses an empty file', () => {
    expect(() => parseQuestions('\n\n')).toThrow(/no questions/);
  });
});
