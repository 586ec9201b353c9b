import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseQuestions } from '../src/parse-questions.ts';

const setPath = new URL('../../../eval/fastify-docs.jsonl', import.meta.url);
// The corpus is the documentation that ships inside the pinned fastify package.
const docsDir = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');

describe('eval/fastify-docs.jsonl', () => {
  const questions = parseQuestions(readFileSync(setPath, 'utf8'), 'fastify-docs.jsonl');

  it('has at least 40 questions, about half exact-token and half paraphrase', () => {
    expect(questions.length).toBeGreaterThanOrEqual(40);
    const exact = questions.filter((q) => q.kind === 'exact').length;
    const paraphrase = questions.filter((q) => q.kind === 'paraphrase').length;
    expect(exact + paraphrase).toBe(questions.length);
    expect(Math.abs(exact - paraphrase)).toBeLessThanOrEqual(questions.length * 0.1);
  });

  it('expects only files that exist in the docs shipped with the pinned fastify', () => {
    const missing = questions.flatMap((q) => q.expected_sources.filter((s) => !existsSync(path.join(docsDir, s))));
    expect(missing).toEqual([]);
  });
});
