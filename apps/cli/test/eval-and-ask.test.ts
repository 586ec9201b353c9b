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
const baselineFile = path.join(root, 'eval/fastify-docs.baseline.json');
const docs = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');

interface Summary {
  mode: string;
  kind: string;
  recall: number;
  mrr: number;
}
interface AskJson {
  answer: string;
  grounded: boolean;
  citations: { n: number; artifact_id: string; chunk_id: string; title: string | null; url: string | null; similarity: number | null; matched_by: string[] }[];
  query_id: string;
}

/**
 * CI's re-measurement of the README's retrieval figures, through the product's own path: `brain
 * eval --corpus` saves and indexes the fastify docs with the real pipeline, then fails (exit 1)
 * when a mode falls below eval/fastify-docs.baseline.json minus its tolerance. The same data then
 * serves `brain ask`.
 */
function evalAndAskSuite(env: () => Record<string, string>, options: { checkRegression: boolean }) {
  it('reproduces the published recall@5 and MRR, hybrid at least as good as each single mode', { timeout: 600_000 }, async () => {
    const run = await runCli(['eval', '--questions', questions, '--corpus', docs, '--baseline', baselineFile, '--json'], env(), 540_000);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = (JSON.parse(run.stdout) as { summary: Summary[] }).summary.filter((s) => s.kind === 'all');
    console.log(summary.map((s) => `${s.mode.padEnd(8)} recall@5 ${s.recall.toFixed(3)}  MRR ${s.mrr.toFixed(3)}`).join('\n'));
    const of = (mode: string) => summary.find((s) => s.mode === mode) as Summary;
    expect(of('hybrid').recall).toBeGreaterThanOrEqual(0.9);
    expect(of('hybrid').recall).toBeGreaterThanOrEqual(of('vector').recall);
    expect(of('hybrid').recall).toBeGreaterThanOrEqual(of('keyword').recall);
  });

  // How --baseline fails does not depend on the database: proven once, on the embedded default.
  if (options.checkRegression) it('fails with the regression named when a figure falls below the baseline', { timeout: 300_000 }, async () => {
    const strict = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'brain-baseline-')), 'strict.json');
    fs.writeFileSync(strict, JSON.stringify({ k: 5, tolerance: 0, modes: { hybrid: { recall: 1, mrr: 1 } } }));
    const run = await runCli(['eval', '--questions', questions, '--workspace', 'eval', '--mode', 'hybrid', '--baseline', strict], env(), 240_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/hybrid recall 0\.\d+ is below the published 1\.000/);
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

describe('brain eval and brain ask, embedded', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await templateDataDir('brain-eval-');
  });
  evalAndAskSuite(() => ({ BRAIN_DATA_DIR: dataDir }), { checkRegression: true });
});

describePostgres('brain eval and brain ask on PostgreSQL', (suite) => {
  evalAndAskSuite(() => ({ DATABASE_URL: suite.url as string }), { checkRegression: false });
});
