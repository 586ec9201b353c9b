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
      { id: 'a', question: 'What is bodyLimit?', expected_sources: ['Reference/Server.md'], kind: 'exact', answerable: true },
      { id: 'b', question: 'How big can a request be?', expected_sources: ['Reference/Server.md'], kind: 'paraphrase', answerable: true },
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

  it('reads gold answers, splits and unanswerable questions', () => {
    const text = [
      '{"id":"a","question":"Default bodyLimit?","expected_sources":["Server.md"],"kind":"exact","answers":["1048576","1 MiB"],"split":"tune"}',
      '{"id":"u","question":"Who painted the Mona Lisa?","kind":"unanswerable","answerable":false,"split":"test"}',
      '{"id":"v","question":"Sourdough?","expected_sources":[],"kind":"unanswerable","answerable":false}',
    ].join('\n');
    expect(parseQuestions(text)).toEqual([
      { id: 'a', question: 'Default bodyLimit?', expected_sources: ['Server.md'], kind: 'exact', answerable: true, answers: ['1048576', '1 MiB'], split: 'tune' },
      { id: 'u', question: 'Who painted the Mona Lisa?', expected_sources: [], kind: 'unanswerable', answerable: false, split: 'test' },
      { id: 'v', question: 'Sourdough?', expected_sources: [], kind: 'unanswerable', answerable: false },
    ]);
  });

  it('refuses malformed answers, splits and unanswerable questions', () => {
    const text = [
      '{"id":"a","question":"q","expected_sources":["x"],"kind":"exact","answers":[]}',
      '{"id":"b","question":"q","expected_sources":["x"],"kind":"exact","answers":["1","2","3","4"]}',
      '{"id":"c","question":"q","expected_sources":["x"],"kind":"exact","answers":["ok",""]}',
      '{"id":"d","question":"q","expected_sources":["x"],"kind":"exact","split":"train"}',
      '{"id":"e","question":"q","expected_sources":["x"],"kind":"unanswerable","answerable":false}',
      '{"id":"f","question":"q","kind":"unanswerable","answerable":false,"answers":["x"]}',
      '{"id":"g","question":"q","expected_sources":["x"],"kind":"exact","answerable":"no"}',
    ].join('\n');
    try {
      parseQuestions(text, 'set.jsonl');
      expect.unreachable();
    } catch (error) {
      expect((error as { details: { problems: string[] } }).details.problems).toEqual([
        'set.jsonl:1: "answers" must be 1 to 3 non-empty strings',
        'set.jsonl:2: "answers" must be 1 to 3 non-empty strings',
        'set.jsonl:3: "answers" must be 1 to 3 non-empty strings',
        'set.jsonl:4: "split" must be "tune" or "test"',
        'set.jsonl:5: an unanswerable question has no "expected_sources"',
        'set.jsonl:6: an unanswerable question has no "answers"',
        'set.jsonl:7: "answerable" must be true or false',
      ]);
    }
  });

  it('refuses an empty file', () => {
    expect(() => parseQuestions('\n\n')).toThrow(/no questions/);
  });
});
