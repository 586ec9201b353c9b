import { beforeAll, expect, it } from 'vitest';
import { audienceKeys, EVERYTHING, withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { isAppError } from '@brain/errors';
import { ask } from '../src/ask.ts';
import { createExtractiveAnswerer } from '../src/extractive-answerer.ts';
import { EXTRACTIVE_LABEL, NO_SOURCES_MESSAGE, NOT_IN_SOURCES_MESSAGE, nothingCovers } from '../src/messages.ts';
import { recordFeedback } from '../src/queries/record-feedback.ts';
import type { Answerer, AnswerRequest } from '../src/types.ts';
import { createWorkspace, queryRows, seedDocs, testLogger, type SeededDoc } from './seed.ts';

const embedder = createLocalEmbedder();

/** An answerer whose text the test writes, recording what it was shown. */
function scripted(respond: (req: AnswerRequest) => string | Promise<string>): Answerer & { seen: AnswerRequest[] } {
  const seen: AnswerRequest[] = [];
  return {
    kind: 'llm',
    model: 'scripted-model',
    seen,
    async answer(req) {
      seen.push(req);
      return { text: await respond(req), model: 'scripted-model', kind: 'llm' };
    },
  };
}

describeDb('ask', (suite) => {
  let a = '';
  let b = '';
  let empty = '';
  let billing: SeededDoc;
  let globex: SeededDoc;
  const { logger, lines } = testLogger();
  const deps = (answerer: Answerer = createExtractiveAnswerer()) => ({ db: suite.db, embedder, answerer, logger });

  beforeAll(async () => {
    a = await createWorkspace(suite.db, 'acme');
    b = await createWorkspace(suite.db, 'globex');
    empty = await createWorkspace(suite.db, 'empty');
    [billing] = await seedDocs(suite.db, a, embedder, [
      {
        title: 'Billing FAQ',
        url: 'https://docs.acme.test/billing',
        passages: [
          'Refunds are processed within five business days of the request. A refund goes back to the original card.',
          'Invoices are emailed on the first day of each month. Annual plans get two months free.',
        ],
      },
    ]) as [SeededDoc];
    await seedDocs(suite.db, a, embedder, [
      { title: 'Security policy', passages: ['Passwords rotate every 90 days. Two-factor login is mandatory for staff accounts.'] },
      { title: 'Onboarding', passages: ['New members get the Newcomer role on their first day. The welcome call is every Monday.'] },
    ]);
    [globex] = await seedDocs(suite.db, b, embedder, [
      {
        title: 'Globex refunds',
        passages: ['Refunds are processed instantly for Globex customers; how long refunds take depends on nothing. Launch code 7741.'],
      },
    ]) as [SeededDoc];
  });

  it('answers extractively from the saved passages, with valid citations and one telemetry row', async () => {
    const result = await ask(deps(), {
      workspaceId: a,
      question: 'How long do refunds take to be processed?',
      surface: 'discord', audience: EVERYTHING,
      askedBy: '123456789012345678',
      interactionId: 'interaction-1',
    });
    expect(result.grounded).toBe(true);
    expect(result.answerer).toBe('extractive');
    expect(result.answer.startsWith(EXTRACTIVE_LABEL)).toBe(true);
    expect(result.answer).toContain('Refunds are processed within five business days of the request. A refund goes back to the original card. [1]');
    expect(result.citations[0]).toMatchObject({
      n: 1,
      artifactId: billing.artifactId,
      chunkId: billing.chunkIds[0],
      title: 'Billing FAQ',
      url: 'https://docs.acme.test/billing',
    });
    // Every marker in the text is listed, and nothing is listed that the text does not cite.
    const markers = [...new Set([...result.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].sort();
    expect(result.citations.map((c) => c.n).sort()).toEqual(markers);

    const rows = await queryRows(suite.db, a);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      id: result.queryId,
      question: 'How long do refunds take to be processed?',
      answer: result.answer,
      grounded: true,
      answerer: 'extractive',
      model: 'extractive-v2',
      embedding_model: embedder.model,
      trimmed: false,
      surface: 'discord',
      asked_by: '123456789012345678',
      interaction_id: 'interaction-1',
      feedback: null,
      error_code: null,
    });
    expect(row.retrieved.length).toBeGreaterThanOrEqual(1);
    expect(row.retrieved.map((r) => r.rank)).toEqual(row.retrieved.map((_, i) => i + 1));
    for (const r of row.retrieved) {
      expect(typeof r.similarity).toBe('number');
      expect(r.matched_by.length).toBeGreaterThan(0);
      expect(r.in_context).toBe(true);
      if (r.matched_by.includes('vector')) expect(r.vector_rank).toBeGreaterThan(0);
      if (r.matched_by.includes('keyword')) expect(r.keyword_rank).toBeGreaterThan(0);
    }
    expect(row.cited).toEqual(result.citations.map((c) => ({ n: c.n, chunk_id: c.chunkId, artifact_id: c.artifactId, rank: c.rank })));
    expect(Object.keys(row.latency_ms).sort()).toEqual(['embed', 'generate', 'search', 'siblings', 'total']);
    for (const ms of Object.values(row.latency_ms)) expect(ms).toBeGreaterThanOrEqual(0);
    expect(row.latency_ms.total).toBeGreaterThanOrEqual(row.latency_ms.search!);
  });

  it('says "No grounded sources found" when nothing passes, and still records one row', async () => {
    const result = await ask(deps(), { workspaceId: empty, question: 'How long do refunds take?', surface: 'cli', audience: EVERYTHING });
    expect(result).toMatchObject({ answer: NO_SOURCES_MESSAGE, grounded: false, citations: [], answerer: 'none', model: null });
    expect(NO_SOURCES_MESSAGE).toBe('No grounded sources found. Try `/save` first.');
    const rows = await queryRows(suite.db, empty);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: result.queryId, grounded: false, answerer: 'none', retrieved: [], cited: [], answer: NO_SOURCES_MESSAGE });
    expect(Object.keys(rows[0]!.latency_ms).sort()).toEqual(['embed', 'search', 'total']);
  });

  it('respects the workspace’s own match_count and min_similarity', async () => {
    const ws = await createWorkspace(suite.db, 'tuned');
    await seedDocs(suite.db, ws, embedder, [
      { title: 'Refund policy', passages: ['Refunds take five days.', 'Refunds go to the card.', 'Refund requests need a form.', 'Refunds over $500 need approval.'] },
    ]);
    const question = 'refunds';
    await withService(suite.db, (tx) => tx.query('update workspaces set match_count = 2 where id = $1', [ws]));
    await ask(deps(), { workspaceId: ws, question, surface: 'cli', audience: EVERYTHING });
    await withService(suite.db, (tx) => tx.query('update workspaces set match_count = 5, min_similarity = 0.99 where id = $1', [ws]));
    // The floor drops what was found by meaning alone; the keyword leg's own top match_count
    // passes it, as keyword search alone would return it.
    const strict = await ask(deps(), { workspaceId: ws, question, surface: 'cli', audience: EVERYTHING });
    const byMeaning = await ask(deps(), { workspaceId: ws, question: 'money back duration', surface: 'cli', audience: EVERYTHING });
    const rows = await queryRows(suite.db, ws);
    expect(rows[0]!.retrieved).toHaveLength(2);
    expect(strict.grounded).toBe(true);
    expect(rows[1]!.retrieved.length).toBeGreaterThan(0);
    expect(rows[1]!.retrieved.every((r) => r.matched_by.includes('keyword') && (r.keyword_rank ?? 99) <= 5)).toBe(true);
    expect(byMeaning.grounded).toBe(false);
    expect(rows[2]!.retrieved).toEqual([]);
  });

  it('never retrieves or cites another workspace’s passages, whatever the answerer writes', async () => {
    const greedy = scripted((req) => req.passages.map((p) => `Claim ${p.n} [${p.n}]`).join(' ') + ' Also [7] [42] [0].');
    const result = await ask(deps(greedy), { workspaceId: a, question: 'How long do refunds take for customers?', surface: 'mcp', audience: EVERYTHING });
    const shown = greedy.seen[0]!.passages.map((p) => p.content).join('\n');
    expect(shown).not.toContain('Globex customers');
    expect(result.citations.every((c) => !globex.chunkIds.includes(c.chunkId))).toBe(true);
    expect(result.answer).not.toMatch(/\[(7|42|0)\]/);
    const row = (await queryRows(suite.db, a)).find((r) => r.id === result.queryId)!;
    expect(row.retrieved.some((r) => globex.chunkIds.includes(r.chunk_id))).toBe(false);
    expect(lines().some((l) => l.msg === 'ask: the answer cited passages it was not given, or misquoted them; removed')).toBe(true);
  });

  it('says nothing saved covers a name the question asks about, before any answerer runs, from this workspace’s own sources', async () => {
    const model = scripted((req) => `Refunds take five days [${req.passages[0]?.n ?? 1}].`);
    const question = 'How long do refunds take for Globex customers?';
    const refused = await ask(deps(model), { workspaceId: a, question, surface: 'discord', audience: EVERYTHING });
    expect(refused).toMatchObject({ answer: nothingCovers(['Globex']), grounded: false, citations: [], answerer: 'none', model: null });
    expect(refused.answer).toBe('Nothing saved covers “Globex”. Try rephrasing, or `/save` a source about it.');
    expect(model.seen).toHaveLength(0);
    const row = (await queryRows(suite.db, a)).find((r) => r.id === refused.queryId)!;
    expect(row).toMatchObject({ grounded: false, answerer: 'none', answer: refused.answer });
    expect(row.retrieved.length).toBeGreaterThan(0);
    // The workspace that saved Globex's page is answered: the counts are each workspace's own.
    const answered = await ask(deps(model), { workspaceId: b, question, surface: 'discord', audience: EVERYTHING });
    expect(answered.grounded).toBe(true);
    expect(model.seen).toHaveLength(1);
  });

  it('replaces an answer that cites nothing valid with an honest "not in the sources"', async () => {
    const uncited = scripted(() => "I don't know from the saved sources.");
    const result = await ask(deps(uncited), { workspaceId: a, question: 'How long do refunds take?', surface: 'cli', audience: EVERYTHING });
    expect(result).toMatchObject({ answer: NOT_IN_SOURCES_MESSAGE, grounded: false, citations: [], answerer: 'llm', model: 'scripted-model' });
  });

  it('turns a hanging model into ANSWER_MODEL_TIMEOUT by its deadline, and records the failed ask', async () => {
    const hanging = scripted(() => new Promise<string>(() => undefined));
    const started = Date.now();
    const failure = await ask({ ...deps(hanging), timeouts: { generateMs: 200 } }, { workspaceId: a, question: 'refunds?', surface: 'cli', audience: EVERYTHING }).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(isAppError(failure, 'ANSWER_MODEL_TIMEOUT')).toBe(true);
    const queryId = (failure as { details: { queryId: string } }).details.queryId;
    const row = (await queryRows(suite.db, a)).find((r) => r.id === queryId)!;
    expect(row).toMatchObject({ error_code: 'ANSWER_MODEL_TIMEOUT', grounded: false, answer: null, answerer: 'llm', model: 'scripted-model' });
    expect(row.retrieved.length).toBeGreaterThan(0);
    expect(row.latency_ms.generate).toBeGreaterThanOrEqual(150);
  });

  it('turns an embedding failure into EMBEDDING_FAILED with a next step, and records it', async () => {
    const broken = { model: embedder.model, dimensions: 1536, embed: () => Promise.reject(new Error('ECONNREFUSED')) };
    const failure = await ask({ ...deps(), embedder: broken }, { workspaceId: a, question: 'refunds?', surface: 'cli', audience: EVERYTHING }).catch((e: unknown) => e);
    expect(isAppError(failure, 'EMBEDDING_FAILED')).toBe(true);
    expect((failure as { nextStep?: string }).nextStep).toMatch(/Try again/);
    const rows = await queryRows(suite.db, a);
    expect(rows.at(-1)).toMatchObject({ error_code: 'EMBEDDING_FAILED', answerer: 'none', retrieved: [] });
  });

  it('rejects an empty question before doing anything', async () => {
    const before = (await queryRows(suite.db, a)).length;
    const failure = await ask(deps(), { workspaceId: a, question: '   ', surface: 'cli', audience: EVERYTHING }).catch((e: unknown) => e);
    expect(isAppError(failure, 'QUESTION_EMPTY')).toBe(true);
    expect(await queryRows(suite.db, a)).toHaveLength(before);
  });

  it('stores feedback on the workspace’s own answers only', async () => {
    const result = await ask(deps(), { workspaceId: a, question: 'When is the welcome call?', surface: 'discord', audience: EVERYTHING });
    const { withWorkspace } = await import('@brain/db');
    expect(await withWorkspace(suite.db, b, (tx) => recordFeedback(tx, { queryId: result.queryId, feedback: 'down', feedbackBy: 'x' }))).toBe(false);
    expect(await withWorkspace(suite.db, a, (tx) => recordFeedback(tx, { queryId: result.queryId, feedback: 'up', feedbackBy: 'u1' }))).toBe(true);
    const row = (await queryRows(suite.db, a)).find((r) => r.id === result.queryId)!;
    expect(row).toMatchObject({ feedback: 'up', feedback_by: 'u1' });
  });

  it('records the keys an answer could cite, and whether its search asked for the everyone key', async () => {
    const asked = await queryRows(suite.db, a);
    for (const audience of [audienceKeys(['workspace']), { ...audienceKeys(['workspace']), everyone: true as const }]) {
      await ask(deps(), { workspaceId: a, question: 'How long do refunds take?', surface: 'discord', audience });
    }
    const rows = (await queryRows(suite.db, a)).slice(asked.length);
    expect(rows.map((r) => r.audience)).toEqual([{ kind: 'keys', keys: ['workspace'] }, { kind: 'keys', keys: ['workspace'], everyone: true }]);
  });
});
