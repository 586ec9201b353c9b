import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { toVectorLiteral, withService, withWorkspace } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createExtractiveAnswerer } from '@brain/answer';
import { createLocalEmbedder } from '@brain/embeddings';
import { createLogger } from '@brain/observability';
import { retrieveForEval } from '../src/retrieve.ts';
import { runEval } from '../src/run-eval.ts';
import { findAnswerSummary } from '../src/answer-scoring.ts';
import { runAnswerEval } from '../src/run-answer-eval.ts';
import { findSummary } from '../src/scoring.ts';
import type { EvalQuestion } from '../src/types.ts';

const embedder = createLocalEmbedder();

const corpus = [
  { fileName: 'docs/Reference/Hooks.md', text: 'The onRequest hook runs first; request.body is undefined there because parsing comes later.' },
  { fileName: 'docs/Reference/Server.md', text: 'bodyLimit defines the maximum payload, in bytes, the server is allowed to accept. Default 1MiB.' },
  { fileName: 'docs/Guides/Testing.md', text: 'Use inject to send fake HTTP requests to your app in tests without listening on a port.' },
];

describeDb('eval: retrieval per mode and scoring', (suite) => {
  let ws = '';

  beforeAll(async () => {
    ws = (await withService(suite.db, (tx) => tx.query<{ id: string }>("insert into workspaces (slug) values ('eval') returning id")))[0]!.id;
    const vectors = await embedder.embed(corpus.map((c) => c.text));
    await withWorkspace(suite.db, ws, async (tx) => {
      for (const [i, doc] of corpus.entries()) {
        const id = randomUUID();
        await tx.query(
          `insert into artifacts (id, workspace_id, kind, source_key, title, file_name, status) values ($1, $2, 'file', $3, $4, $5, 'ready')`,
          [id, ws, `file:${id}`, doc.fileName, doc.fileName],
        );
        await tx.query(
          `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash, embedding, embedding_model, is_live)
           values ($1, $2, 0, $3, md5($3), $4::vector, $5, true)`,
          [ws, id, doc.text, toVectorLiteral(vectors[i]!), embedder.model],
        );
      }
    });
  });

  it('runs each mode through match_artifacts with only its own legs, and reports file names', async () => {
    const question = 'What is the default bodyLimit?';
    const [embedding] = await embedder.embed([question]);
    const vector = await retrieveForEval(suite.db, { workspaceId: ws, question, mode: 'vector', embedding, k: 3 });
    const keyword = await retrieveForEval(suite.db, { workspaceId: ws, question, mode: 'keyword', embedding, k: 3 });
    const hybrid = await retrieveForEval(suite.db, { workspaceId: ws, question, mode: 'hybrid', embedding, k: 3 });
    expect(vector.every((p) => p.matchedBy.join() === 'vector')).toBe(true);
    expect(keyword.every((p) => p.matchedBy.join() === 'keyword' && p.similarity === null)).toBe(true);
    expect(hybrid[0]?.fileName).toBe('docs/Reference/Server.md');
    expect(hybrid[0]?.matchedBy.sort()).toEqual(['keyword', 'vector']);
  });

  it('scores a question set in every mode', async () => {
    const report = await runEval(
      { db: suite.db, embedder },
      {
        workspaceId: ws,
        k: 1,
        questions: [
          { id: 'a', question: 'Why is request.body undefined in onRequest?', expected_sources: ['Reference/Hooks.md'], kind: 'exact', answerable: true },
          { id: 'b', question: 'How do I test without opening a port?', expected_sources: ['Guides/Testing.md'], kind: 'paraphrase', answerable: true },
          { id: 'c', question: 'Where are the zebra crossings?', expected_sources: ['Guides/Zoo.md'], kind: 'paraphrase', answerable: true },
        ],
      },
    );
    expect(report.modes).toEqual(['hybrid', 'vector', 'keyword']);
    expect(report.results).toHaveLength(9);
    const hybrid = findSummary(report, 'hybrid');
    expect(hybrid?.recall).toBeCloseTo(2 / 3);
    expect(report.results.find((r) => r.mode === 'hybrid' && r.id === 'c')?.hit).toBe(false);
  });

  it('answers every question through ask and scores gold strings, cited sources and refusals', async () => {
    const questions: EvalQuestion[] = [
      { id: 'gold', question: 'What is the default bodyLimit?', expected_sources: ['Reference/Server.md'], kind: 'exact', answerable: true, answers: ['Default 1MiB'], split: 'test' },
      { id: 'wrong-gold', question: 'What is the default bodyLimit?', expected_sources: ['Reference/Server.md'], kind: 'exact', answerable: true, answers: ['Default 2MiB'], split: 'test' },
      { id: 'wrong-source', question: 'How do I send fake HTTP requests with inject?', expected_sources: ['Reference/Hooks.md'], kind: 'paraphrase', answerable: true, answers: ['fake HTTP requests'], split: 'tune' },
      { id: 'off-topic', question: 'Wie backe ich Sauerteigbrot mit Roggenmehl?', expected_sources: [], kind: 'unanswerable', answerable: false, split: 'test' },
    ];
    const deps = { db: suite.db, embedder, logger: createLogger({ level: 'silent' }) };
    const report = await runAnswerEval(deps, { workspaceId: ws, questions, answerers: [createExtractiveAnswerer()] });
    const byId = new Map(report.results.map((r) => [r.id, r]));
    expect(byId.get('gold')).toMatchObject({ grounded: true, correct: true, leads: true, citedExpected: true, goldInContext: true, error: null });
    expect(byId.get('gold')?.cited[0]).toBe('docs/Reference/Server.md');
    // The made-up gold is on no page: not the answerer's miss.
    expect(byId.get('wrong-gold')).toMatchObject({ grounded: true, correct: false, leads: false, citedExpected: true, goldInContext: false });
    expect(byId.get('wrong-source')).toMatchObject({ grounded: true, correct: true, citedExpected: false });
    expect(byId.get('off-topic')).toMatchObject({ grounded: false, correct: null, leads: null, citedExpected: null, goldInContext: null });
    expect(findAnswerSummary(report, 'extractive')).toMatchObject({ answerable: 3, unanswerable: 1, accuracy: 2 / 3, goldInContext: 2 / 3, citedExpected: 2 / 3, wronglyRefused: 0, refusedUnanswerable: 1 });

    // Every ask went through the product's path, recorded as the eval surface.
    const rows = await withWorkspace(suite.db, ws, (tx) => tx.query<{ n: number }>("select count(*)::int as n from queries where surface = 'eval'"));
    expect(rows[0]?.n).toBe(4);

    const test = await runAnswerEval(deps, { workspaceId: ws, questions, answerers: [createExtractiveAnswerer()], split: 'test' });
    expect(test.results.map((r) => r.id)).toEqual(['gold', 'wrong-gold', 'off-topic']);
    expect([...new Set(test.summary.map((r) => r.split))]).toEqual(['test']);
  });

  it('leaves unanswerable questions out of retrieval and measures only the half asked for', async () => {
    const report = await runEval(
      { db: suite.db, embedder },
      {
        workspaceId: ws,
        k: 1,
        split: 'tune',
        questions: [
          { id: 'a', question: 'Why is request.body undefined in onRequest?', expected_sources: ['Reference/Hooks.md'], kind: 'exact', answerable: true, split: 'tune' },
          { id: 'b', question: 'How do I test without opening a port?', expected_sources: ['Guides/Testing.md'], kind: 'paraphrase', answerable: true, split: 'test' },
          { id: 'u', question: 'Who painted the Mona Lisa?', expected_sources: [], kind: 'unanswerable', answerable: false, split: 'tune' },
        ],
      },
    );
    expect(report.questionCount).toBe(1);
    expect(report.results.map((r) => r.id)).toEqual(['a', 'a', 'a']);
    expect(findSummary(report, 'hybrid', 'all', 'tune')).toMatchObject({ questions: 1, recall: 1 });
  });
});
