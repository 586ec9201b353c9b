import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normaliseForMatch } from '../src/answer-scoring.ts';
import { parseQuestions } from '../src/parse-questions.ts';

const setPath = new URL('../../../eval/fastify-docs.jsonl', import.meta.url);
// The corpus is the documentation that ships inside the pinned fastify package.
const docsDir = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');

describe('eval/fastify-docs.jsonl', () => {
  const questions = parseQuestions(readFileSync(setPath, 'utf8'), 'fastify-docs.jsonl');

  const answerable = questions.filter((q) => q.answerable);

  it('has at least 40 answerable questions, about half exact-token and half paraphrase, and at least 10 unanswerable', () => {
    expect(answerable.length).toBeGreaterThanOrEqual(40);
    const exact = questions.filter((q) => q.kind === 'exact').length;
    const paraphrase = questions.filter((q) => q.kind === 'paraphrase').length;
    expect(exact + paraphrase).toBe(answerable.length);
    expect(Math.abs(exact - paraphrase)).toBeLessThanOrEqual(answerable.length * 0.1);
    expect(questions.filter((q) => !q.answerable).length).toBeGreaterThanOrEqual(10);
  });

  it('gives every answerable question 1–3 gold strings found in one of its expected files, and splits every kind in halves', () => {
    const text = (s: string) => normaliseForMatch(readFileSync(path.join(docsDir, s), 'utf8'));
    const missing = answerable.flatMap((q) =>
      (q.answers ?? []).filter((a) => !q.expected_sources.some((s) => text(s).includes(normaliseForMatch(a)))).map((a) => `${q.id}: ${a}`),
    );
    expect(answerable.every((q) => q.answers && q.answers.length >= 1 && q.answers.length <= 3)).toBe(true);
    expect(missing).toEqual([]);
    for (const kind of new Set(questions.map((q) => q.kind))) {
      const ofKind = questions.filter((q) => q.kind === kind);
      const tune = ofKind.filter((q) => q.split === 'tune').length;
      expect(tune + ofKind.filter((q) => q.split === 'test').length).toBe(ofKind.length);
      expect(Math.abs(2 * tune - ofKind.length)).toBeLessThanOrEqual(1);
    }
  });

  it('expects only files that exist in the docs shipped with the pinned fastify', () => {
    const missing = questions.flatMap((q) => q.expected_sources.filter((s) => !existsSync(path.join(docsDir, s))));
    expect(missing).toEqual([]);
  });
});
