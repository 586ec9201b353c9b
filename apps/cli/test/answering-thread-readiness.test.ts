import os from 'node:os';
import { BroadcastChannel } from 'node:worker_threads';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig, type BrainConfig } from '@brain/config';
import { audienceKeys, type Database, type Row } from '@brain/db';
import { createWorkspace, describeDb } from '@brain/db/testing';
import { createLogger } from '@brain/observability';
import { freeLoopbackPort, waitUntil } from '@brain/testkit';
import { startWebServer, type WebServer } from '@brain/web';
import { compose, type Composition } from '../src/compose.ts';

// `brain start` says ready (GET /readyz) only once its answering thread can take questions, or
// has given way to the main thread: a cold instance's first /ask must not wait 1–3 s for it.
const held = new URL('./fixtures/answer-thread-held-at-start.mjs', import.meta.url);
const cannotStart = new URL('./fixtures/answer-thread-that-cannot-start.mjs', import.meta.url);

describeDb('readiness waits for the answering thread', (suite) => {
  let config: BrainConfig;
  let workspaceId: string;
  const channel = new BroadcastChannel('brain-test-answer-thread-start');
  let heldThreads = 0;
  channel.onmessage = (event) => {
    if ((event as MessageEvent).data === 'held') heldThreads++;
  };

  beforeAll(async () => {
    workspaceId = await createWorkspace(suite.db, 'readiness');
    const env: Record<string, string> = suite.url ? { DATABASE_URL: suite.url, LOG_LEVEL: 'error' } : { BRAIN_DATA_DIR: os.tmpdir(), LOG_LEVEL: 'error' };
    config = loadConfig(env, { cwd: process.cwd() });
  });
  afterAll(() => channel.close());

  /** As `brain start` wires it: the composition's answering, then the web, ready after both. */
  async function serve(threadOptions: { entry: URL; startTimeoutMs?: number }) {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
    const app: Composition = compose(config, suite.db, logger, { answeringThread: threadOptions });
    const ask = app.answering();
    const port = await freeLoopbackPort();
    let web: WebServer | undefined;
    // The web's own warm-up is four `select 1`s: once they are done, only the thread is left.
    let warmUpDone = 0;
    const db: Database = {
      ...suite.db,
      kind: suite.db.kind,
      display: suite.db.display,
      query: async <T extends Row = Row>(text: string, params?: readonly unknown[]) => {
        const result = await suite.db.query<T>(text, params);
        if (text === 'select 1') warmUpDone++;
        return result;
      },
    };
    const starting = startWebServer({ config, db, logger, readyAfter: () => app.answeringReady() }, { host: '127.0.0.1', port }).then((w) => (web = w));
    const readyz = async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status;
    const question = () => ask({ workspaceId, question: 'When do we deploy?', audience: audienceKeys(['workspace']), surface: 'discord' });
    return { app, lines, starting, readyz, question, started: () => web, warmedUp: () => warmUpDone >= 4 };
  }

  it('says 503 while the thread starts, 200 once it is up, and the first question is answered on it', async () => {
    const before = heldThreads;
    const s = await serve({ entry: held });
    try {
      await waitUntil(() => heldThreads > before, { what: 'the answering thread held at its start' });
      await waitUntil(s.warmedUp, { what: "the web's own warm-up" });
      expect(await s.readyz()).toBe(503);
      expect(s.started()).toBeUndefined();
      channel.postMessage('go');
      const web = await s.starting;
      expect(await s.readyz()).toBe(200);
      expect(await s.app.answeringThread?.ready).toBe(true);
      await s.question();
      expect(s.app.answeringThread?.counters).toEqual({ onThread: 1, inProcess: 0, interactions: 0 });
      await web.close(1_000);
    } finally {
      channel.postMessage('go');
      await (await s.starting).app.close().catch(() => undefined);
      await s.app.close();
    }
  });

  it('is ready when the thread cannot start, answers on the main thread, and says so in the log', async () => {
    const s = await serve({ entry: cannotStart });
    try {
      const web = await s.starting;
      expect(await s.readyz()).toBe(200);
      expect(await s.app.answeringThread?.ready).toBe(false);
      expect(s.lines.some((l) => l.includes('answering on the main thread') && l.includes('the model could not be loaded'))).toBe(true);
      await s.question();
      expect(s.app.answeringThread?.counters).toEqual({ onThread: 0, inProcess: 1, interactions: 0 });
      await web.close(1_000);
    } finally {
      await s.app.close();
    }
  });

  it('is ready when the thread does not start in time, and answers on the main thread', async () => {
    const s = await serve({ entry: held, startTimeoutMs: 300 });
    try {
      const web = await s.starting;
      expect(await s.readyz()).toBe(200);
      expect(await s.app.answeringThread?.ready).toBe(false);
      expect(s.lines.some((l) => l.includes('answering on the main thread') && l.includes('did not start within 0.3 s'))).toBe(true);
      await s.question();
      expect(s.app.answeringThread?.counters).toEqual({ onThread: 0, inProcess: 1, interactions: 0 });
      await web.close(1_000);
    } finally {
      await s.app.close();
    }
  });
}, { pgliteThread: true }); // the answering thread reaches the embedded database through its thread
