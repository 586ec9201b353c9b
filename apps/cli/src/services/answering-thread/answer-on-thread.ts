import { Worker } from 'node:worker_threads';
import type { AskInput, AskResult } from '@brain/answer';
import type { BrainConfig } from '@brain/config';
import { pgliteThreadPort, type Database } from '@brain/db';
import { AppError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import type { AnswerQuestion } from '../answering.ts';
import type { FromThread, ThreadStart, ToThread } from './protocol.ts';
import { fromWire, toWire } from './wire-error.ts';

const BOOTSTRAP = new URL('./thread-bootstrap.mjs', import.meta.url);

export interface AnsweringThread {
  ask: AnswerQuestion;
  /**
   * Settles once questions have somewhere to go: true when the thread is up, false when it failed
   * to start (or took longer than `startTimeoutMs`) and answers run on the calling thread. Never
   * rejects, so readiness can wait for it without being stopped by it.
   */
  readonly ready: Promise<boolean>;
  /** Questions answered on the thread, and those answered here because it had stopped. */
  readonly counters: { readonly onThread: number; readonly inProcess: number };
  close(): Promise<void>;
}

type Pending = { input: AskInput; resolve: (r: AskResult) => void; reject: (e: Error) => void; unlink: () => void };

/**
 * `ask` on a thread of its own, so the thread that verifies and acknowledges interactions does
 * none of an answer's work: its statements, the query's embedding, the answer, their garbage.
 * The thread reaches the database directly (threaded PGlite's own connection, or a PostgreSQL pool
 * of its own). Undefined when it cannot: PGlite on this thread (BRAIN_PGLITE_THREAD=off) is
 * reachable from here only. If the thread stops, the questions it held fail with
 * ANSWER_THREAD_STOPPED and later ones are answered here (`inProcess`).
 */
export interface AnsweringThreadOptions {
  loggerName?: string;
  /** The thread's entry module (tests start one that dies, to prove the fallback). */
  entry?: URL;
  /** How long the thread may take to start before answers move to the calling thread (1–3 s is usual). */
  startTimeoutMs?: number;
}

/** Far above the usual 1–3 s, so only a thread that is stuck, not one on a busy machine, is given up. */
export const ANSWER_THREAD_START_TIMEOUT_MS = 30_000;

export function startAnsweringThread(config: BrainConfig, db: Database, logger: Logger, inProcess: AnswerQuestion, options: AnsweringThreadOptions = {}): AnsweringThread | undefined {
  const loggerName = options.loggerName ?? 'brain';
  const database = db.kind === 'pglite' ? pgliteThreadPort(db) : undefined;
  if (db.kind === 'pglite' && !database) return undefined;
  const start: ThreadStart = { config, loggerName, ...(database ? { database } : {}) };
  const worker = new Worker(options.entry ?? BOOTSTRAP, { workerData: start, transferList: database ? [database] : [], stdout: false, stderr: false });
  const pending = new Map<number, Pending>();
  const counters = { onThread: 0, inProcess: 0 };
  let nextId = 1;
  let stopped: AppError | undefined;
  let closing = false;
  let markReady!: (onThread: boolean) => void;
  const ready = new Promise<boolean>((resolve) => (markReady = resolve));
  const startTimeoutMs = options.startTimeoutMs ?? ANSWER_THREAD_START_TIMEOUT_MS;
  const startTimer = setTimeout(() => {
    stop(`it did not start within ${startTimeoutMs / 1000} s`);
    void worker.terminate();
  }, startTimeoutMs);
  startTimer.unref();
  const send = (message: ToThread) => worker.postMessage(message);
  const settle = () => {
    if (pending.size === 0) worker.unref();
  };

  const stop = (reason: string, cause?: unknown) => {
    if (stopped) return;
    stopped = new AppError({
      code: 'ANSWER_THREAD_STOPPED',
      message: `The answering thread stopped (${reason}).`,
      userMessage: 'I was interrupted while answering. Please ask again.',
      // The operator's part (what stopped, that answers now run on the main thread) is in the log line below.
      nextStep: 'Ask again.',
      retryable: true,
      cause,
    });
    if (!closing) logger.error({ err: cause, reason }, 'the answering thread stopped: answering on the main thread from now on');
    clearTimeout(startTimer);
    markReady(false);
    for (const waiter of pending.values()) {
      waiter.unlink();
      waiter.reject(stopped);
    }
    pending.clear();
    settle();
  };

  worker.on('message', (message: FromThread) => {
    switch (message.type) {
      case 'ready':
        clearTimeout(startTimer);
        if (!stopped) logger.debug('the answering thread is ready');
        markReady(!stopped);
        return;
      case 'failed':
        stop(`it could not start: ${message.error.message}`, fromWire(message.error));
        // Nothing will be sent to it again; whatever it opened before failing goes with it.
        void worker.terminate();
        return;
      case 'private-audience': {
        const waiter = pending.get(message.id);
        const wider = waiter?.input.privateAudience;
        if (!wider) return send({ type: 'audience', id: message.id, error: toWire(new Error('no private audience for this question')) });
        wider().then(
          (audience) => send({ type: 'audience', id: message.id, audience }),
          (error: unknown) => send({ type: 'audience', id: message.id, error: toWire(error) }),
        );
        return;
      }
      case 'answer':
      case 'error': {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        settle();
        waiter?.unlink();
        if (message.type === 'answer') waiter?.resolve(message.result);
        else waiter?.reject(fromWire(message.error));
      }
    }
  });
  worker.on('error', (error) => stop(error.message, error));
  worker.on('exit', (code) => stop(`exit code ${code}`));
  worker.unref();

  const ask: AnswerQuestion = (input) => {
    if (stopped || closing) {
      counters.inProcess++;
      return inProcess(input);
    }
    const id = nextId++;
    counters.onThread++;
    const { signal, privateAudience, ...rest } = input;
    const reason = () => String((signal?.reason as Error | undefined)?.message ?? 'aborted');
    return new Promise<AskResult>((resolve, reject) => {
      const onAbort = () => send({ type: 'abort', id, reason: reason() });
      signal?.addEventListener('abort', onAbort, { once: true });
      const unlink = () => signal?.removeEventListener('abort', onAbort);
      if (pending.size === 0) worker.ref();
      pending.set(id, { input, resolve, reject, unlink });
      send({ type: 'ask', id, input: { ...rest, hasPrivateAudience: privateAudience !== undefined }, ...(signal?.aborted ? { aborted: reason() } : {}) });
    });
  };

  return {
    ask,
    ready,
    counters,
    async close() {
      closing = true;
      await worker.terminate();
    },
  };
}
