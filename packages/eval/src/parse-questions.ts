import { AppError } from '@brain/errors';
import type { EvalQuestion } from './types.ts';

const MAX_ANSWERS = 3;

/**
 * Reads an eval set: one JSON object per line, `{"id", "question", "expected_sources", "kind"}`,
 * optionally `"answers"` (1–3 gold strings), `"answerable": false` (then no expected sources and
 * no answers) and `"split": "tune" | "test"`. Blank lines and lines starting with `//` are skipped.
 * Every problem is reported together, with its line number, so a hand-edited file is fixed in one pass.
 */
export function parseQuestions(text: string, sourceName = 'questions'): EvalQuestion[] {
  const questions: EvalQuestion[] = [];
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) continue;
    const where = `${sourceName}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`${where}: not valid JSON`);
      continue;
    }
    const problem = checkQuestion(value);
    if (problem) {
      problems.push(`${where}: ${problem}`);
      continue;
    }
    const q = value as EvalQuestion & { answerable?: boolean };
    if (ids.has(q.id)) problems.push(`${where}: duplicate id ${JSON.stringify(q.id)}`);
    ids.add(q.id);
    questions.push({
      id: q.id,
      question: q.question,
      expected_sources: q.expected_sources ?? [],
      kind: q.kind,
      answerable: q.answerable !== false,
      ...(q.answers ? { answers: q.answers } : {}),
      ...(q.split ? { split: q.split } : {}),
    });
  }
  if (questions.length === 0 && problems.length === 0) problems.push(`${sourceName}: no questions`);
  if (problems.length > 0) {
    throw new AppError({
      code: 'EVAL_QUESTIONS_INVALID',
      message: `Invalid eval set:\n  - ${problems.slice(0, 20).join('\n  - ')}`,
      nextStep:
        'Each line must be {"id": "…", "question": "…", "expected_sources": ["…"], "kind": "…"}, optionally with "answers": ["…"] and "split": "tune" or "test"; an unanswerable one has "answerable": false and no expected sources.',
      httpStatus: 400,
      details: { problems },
    });
  }
  return questions;
}

function checkQuestion(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'expected a JSON object';
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || v.id.trim() === '') return '"id" must be a non-empty string';
  if (typeof v.question !== 'string' || v.question.trim() === '') return '"question" must be a non-empty string';
  if (typeof v.kind !== 'string' || v.kind.trim() === '') return '"kind" must be a non-empty string';
  if (v.answerable !== undefined && typeof v.answerable !== 'boolean') return '"answerable" must be true or false';
  if (v.split !== undefined && v.split !== 'tune' && v.split !== 'test') return '"split" must be "tune" or "test"';
  const sources = v.expected_sources;
  if (v.answerable === false) {
    if (sources !== undefined && !(Array.isArray(sources) && sources.length === 0)) return 'an unanswerable question has no "expected_sources"';
    if (v.answers !== undefined) return 'an unanswerable question has no "answers"';
    return undefined;
  }
  if (!Array.isArray(sources) || sources.length === 0 || !sources.every((s) => typeof s === 'string' && s.trim() !== '')) {
    return '"expected_sources" must be a non-empty array of file names or URLs';
  }
  const answers = v.answers;
  if (answers !== undefined) {
    if (!Array.isArray(answers) || answers.length === 0 || answers.length > MAX_ANSWERS || !answers.every((a) => typeof a === 'string' && a.trim() !== '')) {
      return `"answers" must be 1 to ${MAX_ANSWERS} non-empty strings`;
    }
  }
  return undefined;
}
