import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import { connectPgliteThread, openDatabase, yieldToMainThread, type AudienceFilter, type Database } from '@brain/db';
import { InFlightWork, type DeferredRunner } from '@brain/discord';
import { createLogger } from '@brain/observability';
import { composeHandedOffInteractions } from '../../compose.ts';
import { buildAnswering } from '../answering.ts';
import { buildEmbedder } from '../embedder.ts';
import type { FromThread, ThreadStart, ToThread } from './protocol.ts';
import { fromWire, toWire } from './wire-error.ts';

yieldToMainThread();

// The thread that answers questions: retrieval, the query's embedding, the answer and its record
// run here, so the thread that acknowledges interactions does none of their work (nor their
// garbage). The same `ask` as in-process, over a database connection of this thread's own.
const port = ((p) => {
  if (!p) throw new Error('thread-main runs only as a worker thread');
  return p;
})(parentPort);
const start = workerData as ThreadStart;
const post = (message: FromThread) => port.postMessage(message);

async function openOwnDatabase(): Promise<Database> {
  if (start.database) return connectPgliteThread(start.database);
  // PostgreSQL: a pool of this thread's own; the embedded database is reached only through its thread.
  if (start.config.database.kind !== 'postgres') throw new Error('the answering thread needs the embedded database in a thread, or PostgreSQL');
  return openDatabase(start.config.database, { command: 'answering' });
}

async function main(): Promise<void> {
  // Straight to the process's stdout (not piped through the main thread), in the same format;
  // synchronous, so a line written just before the thread is stopped is not lost.
  const logger = createLogger({ level: start.config.logLevel, name: start.loggerName, destination: pino.destination({ dest: 1, sync: true }) });
  const db = await openOwnDatabase();
  const answer = buildAnswering(start.config, db, logger, buildEmbedder(start.config, logger));
  const aborts = new Map<number, AbortController>();
  // Deferred interactions handed over whole: their queue (the backlog of acknowledged questions)
  // lives here, at most 16 at a time as on the acknowledging thread; built at the first.
  let interactions: { run: DeferredRunner; inFlight: InFlightWork } | undefined;
  let failedSetup: unknown;
  const serve = (build: () => DeferredRunner) => {
    try {
      interactions = { run: build(), inFlight: new InFlightWork(logger) };
    } catch (error) {
      failedSetup = error;
      logger.error({ err: error }, 'the answering thread cannot do interaction work: each one handed over is edited with the error');
    }
  };
  const audiences = new Map<number, { resolve: (a: AudienceFilter) => void; reject: (e: Error) => void }>();

  port.on('message', (message: ToThread) => {
    switch (message.type) {
      case 'abort':
        return aborts.get(message.id)?.abort(new Error(message.reason));
      case 'audience': {
        const waiter = audiences.get(message.id);
        audiences.delete(message.id);
        if (message.audience) waiter?.resolve(message.audience);
        else waiter?.reject(message.error ? fromWire(message.error) : new Error('no audience'));
        return;
      }
      case 'serve-interactions':
        return serve(() => composeHandedOffInteractions(start.config, db, logger, answer, message.setup));
      case 'interactions':
        for (const { id, work } of message.items) {
          const lost = (error: unknown) => post({ type: 'interaction-lost', id, error: toWire(error) });
          if (!interactions) {
            lost(failedSetup ?? new Error('interaction work before its setup'));
            continue;
          }
          const { run, inFlight } = interactions;
          inFlight.start(work.label, (signals) => run(work, signals).then((outcome) => post({ type: 'interaction-done', id, outcome }), lost));
        }
        return;
      case 'drain':
        void (interactions?.inFlight.drain(message.graceMs) ?? Promise.resolve()).finally(() => post({ type: 'drained' }));
        return;
      case 'ask': {
        const { id, input } = message;
        const controller = new AbortController();
        if (message.aborted !== undefined) controller.abort(new Error(message.aborted));
        aborts.set(id, controller);
        const { hasPrivateAudience, ...rest } = input;
        const privateAudience = hasPrivateAudience
          ? () =>
              new Promise<AudienceFilter>((resolve, reject) => {
                audiences.set(id, { resolve, reject });
                post({ type: 'private-audience', id });
              })
          : undefined;
        answer({ ...rest, signal: controller.signal, ...(privateAudience ? { privateAudience } : {}) }).then(
          (result) => post({ type: 'answer', id, result }),
          (error: unknown) => post({ type: 'error', id, error: toWire(error) }),
        ).finally(() => aborts.delete(id));
      }
    }
  });
}

main().then(
  () => post({ type: 'ready' }),
  (error: unknown) => post({ type: 'failed', error: toWire(error) }),
);
