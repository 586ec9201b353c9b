import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ask, createExtractiveAnswerer, type AskInput } from '@brain/answer';
import { loadConfig } from '@brain/config';
import { audienceKeys, withService } from '@brain/db';
import { HELPER_THREAD_NICENESS } from '@brain/db';
import { createWorkspace, describeDb, threadNiceness } from '@brain/db/testing';
import { createLocalEmbedder } from '@brain/embeddings';
import { isAppError } from '@brain/errors';
import { createLogger } from '@brain/observability';
import { startAnsweringThread, type AnsweringThread } from '../src/services/answering-thread/answer-on-thread.ts';
import { seedPassage } from './fixtures/seed-passage.ts';

// `brain start` answers on a thread of its own; these prove it is the same `ask` there, over the
// thread's own connection to the same database, with errors and the private hint intact.
const embedder = createLocalEmbedder();
const logger = createLogger({ level: 'silent' });
const STAFF = 'channel:100000000000000005';

describeDb('answering on a thread of its own', (suite) => {
  let thread: AnsweringThread;
  let workspaceId: string;
  let threadsBefore = new Map<string, number>();
  const inProcess = (input: AskInput) => ask({ db: suite.db, embedder, answerer: createExtractiveAnswerer(), logger }, input);
  const base = (question: string): AskInput => ({ workspaceId, question, audience: audienceKeys(['workspace']), surface: 'discord' });

  beforeAll(async () => {
    workspaceId = await createWorkspace(suite.db, 'thread');
    await seedPassage(suite.db, workspaceId, 'Deploys', 'We deploy on Tuesdays and Thursdays after the release review.');
    await seedPassage(suite.db, workspaceId, 'Layoffs', 'The layoffs are planned for June 9 in the Berlin office.', STAFF);
    const env: Record<string, string> = suite.url ? { DATABASE_URL: suite.url, LOG_LEVEL: 'error' } : { BRAIN_DATA_DIR: os.tmpdir(), LOG_LEVEL: 'error' };
    if (process.platform === 'linux') threadsBefore = threadNiceness();
    const started = startAnsweringThread(loadConfig(env, { cwd: process.cwd() }), suite.db, logger, () => Promise.reject(new Error('answered on the calling thread')));
    if (!started) throw new Error('expected an answering thread for this database');
    thread = started;
  });
  afterAll(async () => {
    await thread?.close();
  });

  it('answers as in-process ask does, on the thread, and records the query', async () => {
    const there = await thread.ask(base('When do we deploy?'));
    const here = await inProcess(base('When do we deploy?'));
    expect(there.grounded).toBe(true);
    expect({ ...there, queryId: undefined }).toEqual({ ...here, queryId: undefined });
    expect(thread.counters).toEqual({ onThread: 1, inProcess: 0, interactions: 0 });
    const rows = await withService(suite.db, (tx) => tx.query<{ id: string }>('select id::text from queries where id = $1', [there.queryId]));
    expect(rows).toHaveLength(1);
  });

  it.skipIf(process.platform !== 'linux')('runs nicer than the thread that acknowledges, which keeps its own (Linux only: per-thread nice values)', async () => {
    expect(await thread.ready).toBe(true);
    const main = os.getPriority(0);
    const added = [...threadNiceness()].filter(([tid]) => !threadsBefore.has(tid)).map(([, nice]) => nice);
    expect(added).toContain(Math.min(19, main + HELPER_THREAD_NICENESS));
    expect(os.getPriority(0)).toBe(main);
  });
  if (process.platform !== 'linux') console.log('skipped: the answering thread’s nice value is checked on Linux only (elsewhere a nice value is the whole process’s, and the thread keeps it)');

  it('rejects with the same AppError (code, user message, details) as in-process ask', async () => {
    for (const input of [base(' '), { ...base('When do we deploy?'), workspaceId: randomUUID() }]) {
      const there = await thread.ask(input).catch((e: unknown) => e);
      const here = await inProcess(input).catch((e: unknown) => e);
      expect(isAppError(there)).toBe(true);
      expect(isAppError(here)).toBe(true);
      if (!isAppError(there) || !isAppError(here)) return;
      expect([there.code, there.userMessage, there.nextStep, there.httpStatus]).toEqual([here.code, here.userMessage, here.nextStep, here.httpStatus]);
    }
  });

  it("asks the caller for the wider audience, and says only that a private answer exists", async () => {
    let widened = 0;
    const result = await thread.ask({
      ...base('When are the layoffs planned?'),
      privateAudience: () => {
        widened++;
        return Promise.resolve(audienceKeys(['workspace', STAFF]));
      },
    });
    expect(widened).toBe(1);
    expect(result).toMatchObject({ grounded: false, privateAnswerAvailable: true, citations: [] });
  });

  it('stops when the caller gives up (an aborted signal)', async () => {
    const controller = new AbortController();
    controller.abort(new Error('interaction expired'));
    const there = await thread.ask({ ...base('When do we deploy?'), signal: controller.signal }).catch((e: unknown) => e);
    const here = await inProcess({ ...base('When do we deploy?'), signal: controller.signal }).catch((e: unknown) => e);
    expect(isAppError(there) && there.code).toBe(isAppError(here) && here.code);
  });

  it('fails the questions a dead thread held with ANSWER_THREAD_STOPPED, then answers here', async () => {
    const env: Record<string, string> = suite.url ? { DATABASE_URL: suite.url, LOG_LEVEL: 'error' } : { BRAIN_DATA_DIR: os.tmpdir(), LOG_LEVEL: 'error' };
    const dying = startAnsweringThread(loadConfig(env, { cwd: process.cwd() }), suite.db, logger, inProcess, { entry: new URL('./fixtures/answer-thread-that-dies.mjs', import.meta.url) });
    if (!dying) throw new Error('expected an answering thread for this database');
    try {
      const held = await dying.ask(base('When do we deploy?')).catch((e: unknown) => e);
      expect(isAppError(held) && [held.code, held.retryable, held.userMessage]).toEqual(['ANSWER_THREAD_STOPPED', true, 'I was interrupted while answering. Please ask again.']);
      const after = await dying.ask(base('When do we deploy?'));
      expect(after.grounded).toBe(true);
      expect(dying.counters).toEqual({ onThread: 1, inProcess: 1, interactions: 0 });
    } finally {
      await dying.close();
    }
  });
}, { pgliteThread: true }); // the answering thread reaches the embedded database through its thread
