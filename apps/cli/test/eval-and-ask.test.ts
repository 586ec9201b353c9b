import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describePostgres } from '@brain/db/testing';
import { templateDataDir } from './brain-process.ts';
import { runCli } from './run-cli.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const questions = path.join(root, 'eval/fastify-docs.jsonl');
const docs = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');

interface AskJson {
  answer: string;
  grounded: boolean;
  citations: { n: number; artifact_id: string; chunk_id: string; title: string | null; url: string | null; similarity: number | null; matched_by: string[] }[];
  query_id: string;
}

/**
 * `brain eval` and `brain ask` through the product's own path, on three saved fastify pages (the
 * bodyLimit answer and two neighbours to rank it against). The full fastify set, like the
 * python-docs and postgres-docs sets, is measured against its baseline by CI's steps of their own
 * after npm test, on both engines (`npm run eval:fastify-docs`, `bash .ci/eval-docs-set.sh
 * fastify-docs --postgres`): indexing a whole set is the largest single job of a test run.
 */
function evalAndAskSuite(env: () => Record<string, string>, options: { checkRegression: boolean }) {
  // How --baseline fails does not depend on the database: proven once, on the embedded default,
  // in one run for both kinds of figure (each `brain eval` process costs seconds of start-up).
  if (options.checkRegression) it('fails with each regression named, per half, when a retrieval or answer figure falls below the baseline', { timeout: 300_000 }, async () => {
    const strict = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'brain-baseline-')), 'strict.json');
    fs.writeFileSync(strict, JSON.stringify({ k: 5, tolerance: 0, modes: {}, splits: { test: { modes: { hybrid: { recall: 1, mrr: 1 } }, answers: { extractive: { accuracy: 1, wronglyRefused: -1 } } } } }));
    const run = await runCli(['eval', '--questions', questions, '--workspace', 'eval', '--mode', 'hybrid', '--split', 'test', '--answers', '--baseline', strict], env(), 240_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\[test half\] hybrid recall 0\.\d+ is below the published 1\.000 \(tolerance 0\)/);
    expect(run.stderr).toMatch(/\[test half\] extractive accuracy 0\.\d+ is below the published 1\.000 \(tolerance 0\.02\)/);
    expect(run.stderr).toMatch(/\[test half\] extractive wronglyRefused \d\.\d{3} is above the published -1\.000/);
    // Only the test half was measured, in the one mode asked for.
    expect(run.stdout).toMatch(/extractive\s+test\s+all\s+24\s+6\s/);
    expect(run.stdout).not.toMatch(/extractive\s+tune/);
    expect(run.stdout).not.toMatch(/\bkeyword\b/);
    // No chat model is configured here, and the report says why that answerer was not measured.
    expect(run.stdout).toMatch(/chat: skipped \([^)]*OPENAI_API_KEY/);
  });

  it('answers from the saved docs with valid citations, and says so when nothing was saved about it', { timeout: 300_000 }, async () => {
    const grounded = await runCli(['ask', 'What is the default bodyLimit?', '--workspace', 'eval', '--json'], env(), 120_000);
    expect(grounded.code).toBe(0);
    const answer = JSON.parse(grounded.stdout) as AskJson;
    expect(answer.grounded).toBe(true);
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.answer).toMatch(/1048576/);
    // Every [n] in the text is a listed citation, and every listed citation is used.
    const used = new Set([...answer.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
    expect([...used].sort()).toEqual(answer.citations.map((c) => c.n).sort());
    expect(answer.query_id).toMatch(/^[0-9a-f-]{36}$/);

    const unknown = await runCli(['ask', 'Wie backe ich Sauerteigbrot mit Roggenmehl?', '--workspace', 'eval', '--json'], env(), 120_000);
    const none = JSON.parse(unknown.stdout) as AskJson;
    expect(none).toMatchObject({ grounded: false, citations: [] });
    // The German words are in no saved page: the refusal names them (before, the similarity floor said "No grounded sources found").
    expect(none.answer).toContain('Nothing saved covers “Sauerteigbrot”');
  });
}

const somePages = ['Reference/Server.md', 'Reference/Routes.md', 'Reference/Hooks.md'].map((page) => path.join(docs, page));

async function saveSomePages(env: Record<string, string>): Promise<void> {
  const saved = await runCli(['save', ...somePages, '--workspace', 'eval', '--wait', '--json'], env, 120_000);
  expect(saved.stderr).toBe('');
  expect((JSON.parse(saved.stdout) as { status: string }[]).map((s) => s.status)).toEqual(['ready', 'ready', 'ready']);
}

describe('brain eval and brain ask, embedded', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await templateDataDir('brain-eval-');
    await saveSomePages({ BRAIN_DATA_DIR: dataDir });
  }, 180_000);
  evalAndAskSuite(() => ({ BRAIN_DATA_DIR: dataDir }), { checkRegression: true });
});

describePostgres('brain eval and brain ask on PostgreSQL', (suite) => {
  beforeAll(() => saveSomePages({ DATABASE_URL: suite.url as string }), 180_000);
  evalAndAskSuite(() => ({ DATABASE_URL: suite.url as string }), { checkRegression: false });
});
