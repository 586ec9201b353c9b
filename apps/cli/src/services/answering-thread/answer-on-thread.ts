import { Worker } from 'node:worker_threads';
import type { AskInput, AskResult } from '@brain/answer';
import type { BrainConfig } from '@brain/config';
import { pgliteThreadPort, type Database } from '@brain/db';
import type { DeferredHandOff, DeferredOutcome, DeferredWork } from '@brain/discord';
import { AppError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import type { AnswerQuestion } from '../answering.ts';
import type { FromThread, InteractionSetup, ThreadStart, ToThread } from './protocol.ts';
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
  /**
   * Hands whole deferred interactions (`accepts` says which) to the thread: their entitlement and
   * audience lookups, the answer and the edits of the reply run there, and the backlog of those
   * acknowledged and not yet answered waits there, not on the acknowledging thread's heap. Once the
   * thread has stopped it takes nothing (the work then runs here); what it held is rejected with
   * ANSWER_THREAD_STOPPED, which the acknowledging side edits into the reply.
   */
  handOff(setup: InteractionSetup, accepts: (work: DeferredWork) => boolean): DeferredHandOff;
  /** Questions answered on the thread, and those answered here because it had stopped; interactions handed to it. */
  readonly counters: { readonly onThread: number; readonly inProcess: number; readonly interactions: number };
  close(): Promise<void>;
}

type Pending = { input: AskInput; resolve: (r: AskResult) => void; reject: (e: Error) => void; unlink: () => void };
type PendingWork = { resolve: (outcome: DeferredOutcome) => void; reject: (e: Error) => void };

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

/** How long a handed-over interaction may wait to cross with the next ones (see `flush`). */
export const HANDOFF_BATCH_MS = 10;

/** Far above the usual 1–3 s, so only a thread that is stuck, not one on a busy machine, is given up. */
export const ANSWER_THREAD_START_TIMEOUT_MS = 30_000;

export function startAnsweringThread(config: BrainConfig, db: Database, logger: Logger, inProcess: AnswerQuestion, options: AnsweringThreadOptions = {}): AnsweringThread | undefined {
  const loggerName = options.loggerName ?? 'brain';
  const database = db.kind === 'pglite' ? pgliteThreadPort(db) : undefined;
  if (db.kind === 'pglite' && !database) return undefined;
  const start: ThreadStart = { config, loggerName, ...(database ? { database } : {}) };
  const worker = new Worker(options.entry ?? BOOTSTRAP, { workerData: start, transferList: database ? [database] : [], stdout: false, stderr: false });
  const pending = new Map<number, Pending>();
  const handedOver = new Map<number, PendingWork>();
  const drains = new Set<() => void>();
  const counters = { onThread: 0, inProcess: 0, interactions: 0 };
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
    if (pending.size === 0 && handedOver.size === 0) worker.unref();
  };
  const hold = () => {
    if (pending.size === 0 && handedOver.size === 0) worker.ref();
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
    clearTimeout(flushTimer);
    outbox = [];
    for (const work of handedOver.values()) work.reject(stopped);
    handedOver.clear();
    for (const drained of drains) drained();
    drains.clear();
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
      case 'interaction-done':
      case 'interaction-lost': {
        const work = handedOver.get(message.id);
        handedOver.delete(message.id);
        settle();
        if (message.type === 'interaction-done') work?.resolve(message.outcome);
        else work?.reject(fromWire(message.error));
        return;
      }
      case 'drained':
        for (const drained of drains) drained();
        drains.clear();
        return;
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
      hold();
      pending.set(id, { input, resolve, reject, unlink });
      send({ type: 'ask', id, input: { ...rest, hasPrivateAudience: privateAudience !== undefined }, ...(signal?.aborted ? { aborted: reason() } : {}) });
    });
  };

  let serving = false;
  // Handed-over interactions cross in batches, one message every HANDOFF_BATCH_MS at most: each
  // message wakes the thread, and on busy cores that wake-up, not the copy, is what a message
  // costs the acknowledging thread. An answer waits that much longer for its turn; none of it
  // is on an acknowledgement's path.
  let outbox: { id: number; work: DeferredWork }[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (outbox.length === 0 || stopped) return;
    const items = outbox;
    outbox = [];
    send({ type: 'interactions', items });
  };
  const handOff = (setup: InteractionSetup, accepts: (work: DeferredWork) => boolean): DeferredHandOff => ({
    take(work) {
      if (stopped || closing || !accepts(work)) return undefined;
      if (!serving) {
        serving = true;
        send({ type: 'serve-interactions', setup });
      }
      const id = nextId++;
      counters.interactions++;
      return new Promise<DeferredOutcome>((resolve, reject) => {
        hold();
        handedOver.set(id, { resolve, reject });
        outbox.push({ id, work });
        flushTimer ??= setTimeout(flush, HANDOFF_BATCH_MS);
      });
    },
    drain(graceMs) {
      if (!serving || stopped) return Promise.resolve();
      flush();
      return new Promise<void>((resolve) => {
        drains.add(resolve);
        send({ type: 'drain', graceMs });
      });
    },
  });

  return {
    ask,
    ready,
    handOff,
    counters,
    async close() {
      closing = true;
      await worker.terminate();
    },
  };
}
