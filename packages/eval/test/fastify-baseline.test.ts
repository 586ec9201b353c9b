import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { compareToBaseline, type EvalBaseline } from '../src/baseline.ts';
import { formatReport } from '../src/format-report.ts';
import { parseQuestions } from '../src/parse-questions.ts';
import { runEval } from '../src/run-eval.ts';
import { findSummary } from '../src/scoring.ts';
import type { EvalReport } from '../src/types.ts';
import { loadMarkdownCorpus } from './load-markdown-corpus.ts';

const root = new URL('../../../eval/', import.meta.url);
const docsDir = path.join(path.dirname(createRequire(import.meta.url).resolve('fastify/package.json')), 'docs');
const baseline = JSON.parse(readFileSync(new URL('fastify-docs.baseline.json', root), 'utf8')) as EvalBaseline & { tolerance: number };
const questions = parseQuestions(readFileSync(new URL('fastify-docs.jsonl', root), 'utf8'), 'fastify-docs.jsonl');

/**
 * CI's re-measurement of the figures the README publishes: the fastify docs shipped with the pinned
 * fastify, the local embedder, all three modes at k = 5. It fails when a mode falls below its
 * published recall@5 or MRR minus the tolerance (eval/fastify-docs.baseline.json).
 */
describeDb('eval: fastify docs against the published figures', (suite) => {
  let report: EvalReport;

  beforeAll(async () => {
    const embedder = createLocalEmbedder();
    const [ws] = await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('fastify-docs') returning id"));
    await loadMarkdownCorpus(suite.db, ws!.id, docsDir, embedder);
    report = await runEval({ db: suite.db, embedder }, { workspaceId: ws!.id, questions, k: baseline.k });
    console.log(`\n${formatReport(report)}\n`);
  }, 600_000);

  it('holds every mode at its published recall@5 and MRR, within the tolerance', () => {
    expect(compareToBaseline(report, baseline, { tolerance: baseline.tolerance })).toEqual([]);
  });

  it('keeps hybrid at least as good as each single mode overall', () => {
    const hybrid = findSummary(report, 'hybrid');
    for (const mode of ['vector', 'keyword'] as const) {
      expect(hybrid?.recall).toBeGreaterThanOrEqual((findSummary(report, mode)?.recall ?? 1) - 1e-9);
    }
  });
});
