import { Worker } from 'node:worker_threads';
import { LOCAL_EMBEDDING_DIMENSIONS, LOCAL_EMBEDDING_MODEL, type Embedder, type LocalModel } from '@brain/embeddings';
import { AppError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import type { ChunkPiece, ConversationMessageInput } from '../pipeline/ingest-services.ts';
import type { CpuReply, CpuTask, SerializedAppError } from './protocol.ts';

const BOOTSTRAP = new URL('./thread-bootstrap.mjs', import.meta.url);

export interface IngestCpuThreadsOptions {
  /** Threads to spread the work over (default 1: on two cores the other one serves HTTP). */
  size?: number;
  logger?: Logger;
  /** The local model the threads embed with: the database's, which may not be the default. */
  model?: LocalModel;
}

export interface IngestCpuThreads {
  chunk(document: { title: string; text: string }): Promise<ChunkPiece[]>;
  chunkConversation(conversation: { title: string; messages: ConversationMessageInput[] }): Promise<ChunkPiece[]>;
  /** The options' local model (the default one unless given), computed on the threads. */
  embedder: Embedder;
  /** Stops the threads; work still pending fails with INGEST_THREAD_DIED (retryable). */
  close(): Promise<void>;
  /** Threads started so far (a crashed one is replaced on the next call). */
  readonly counters: { started: number; crashed: number };
}

type Pending = { resolve: (reply: CpuReply & { ok: true }) => void; reject: (error: Error) => void };

interface Slot {
  worker: Worker | undefined;
  pending: Map<number, Pending>;
}

/**
 * Chunking and the local embedder in worker threads, behind the same functions the pipeline
 * calls in-thread: with the embedded database, the thread that runs them also acknowledges every
 * Discord interaction (due within 3 s), so CPU-heavy indexing must not run there. The work is
 * pure, so the output is the in-thread path's, byte for byte. A thread that dies fails only the
 * work it held, with a retryable error, and the next call starts a new one.
 */
export function createIngestCpuThreads(options: IngestCpuThreadsOptions = {}): IngestCpuThreads {
  const slots: Slot[] = Array.from({ length: Math.max(1, options.size ?? 1) }, () => ({ worker: undefined, pending: new Map() }));
  const counters = { started: 0, crashed: 0 };
  const model = options.model ?? LOCAL_EMBEDDING_MODEL;
  let nextId = 1;
  let turn = 0;
  let closed = false;

  const died = (reason: string, cause?: unknown) =>
    new AppError({
      code: 'INGEST_THREAD_DIED',
      message: `The ingestion thread stopped (${reason}) while chunking or embedding.`,
      userMessage: 'Indexing was interrupted; it will be retried.',
      nextStep: 'Nothing to do: the job is retried. If it keeps failing, the worker log has the reason.',
      retryable: true,
      cause,
    });

  const settle = (slot: Slot) => {
    // An idle pool must not keep the process alive.
    if (slot.pending.size === 0) slot.worker?.unref();
  };

  const spawn = (slot: Slot): Worker => {
    const worker = new Worker(BOOTSTRAP, { stdout: false, stderr: false });
    counters.started += 1;
    const lose = (reason: string, cause?: unknown) => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      if (!closed) {
        counters.crashed += 1;
        options.logger?.error({ err: cause, reason }, 'ingestion thread died: its pending work is retried');
      }
      const error = died(closed ? 'the pool was closed' : reason, cause);
      for (const waiter of slot.pending.values()) waiter.reject(error);
      slot.pending.clear();
    };
    worker.on('message', (reply: CpuReply) => {
      const waiter = slot.pending.get(reply.id);
      if (!waiter) return;
      slot.pending.delete(reply.id);
      settle(slot);
      if (reply.ok) waiter.resolve(reply);
      else waiter.reject(revive(reply.error));
    });
    worker.on('error', (error) => lose(error.message, error));
    worker.on('exit', (code) => lose(`exit code ${code}`));
    return worker;
  };

  const run = (task: CpuTask, signal?: AbortSignal): Promise<CpuReply & { ok: true }> => {
    if (closed) return Promise.reject(died('the pool was closed'));
    signal?.throwIfAborted();
    const slot = slots[turn++ % slots.length] as Slot;
    const worker = (slot.worker ??= spawn(slot));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        // The thread finishes the task; its answer is dropped.
        slot.pending.delete(id);
        settle(slot);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.pending.set(id, {
        resolve: (reply) => (signal?.removeEventListener('abort', onAbort), resolve(reply)),
        reject: (error) => (signal?.removeEventListener('abort', onAbort), reject(error)),
      });
      worker.ref();
      worker.postMessage({ ...task, id });
    });
  };

  const pieces = async (task: CpuTask): Promise<ChunkPiece[]> => {
    const reply = await run(task);
    return 'pieces' in reply ? reply.pieces : [];
  };

  return {
    chunk: (document) => pieces({ op: 'chunk-document', document }),
    chunkConversation: (conversation) => pieces({ op: 'chunk-conversation', conversation }),
    embedder: {
      model,
      dimensions: LOCAL_EMBEDDING_DIMENSIONS,
      async embed(texts, embedOptions) {
        if (texts.length === 0) return [];
        const reply = await run({ op: 'embed-local', model, texts: [...texts] }, embedOptions?.signal);
        if (!('vectors' in reply)) return [];
        return reply.vectors.map((buffer) => {
          const vector = new Float64Array(buffer);
          // A plain loop: Array.from walks a typed array through its iterator, several times slower.
          const plain = new Array<number>(vector.length);
          for (let i = 0; i < vector.length; i++) plain[i] = vector[i] as number;
          return plain;
        });
      },
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((slot) => slot.worker?.terminate() ?? Promise.resolve(0)));
    },
    counters,
  };
}

/** AppErrors from the thread (a chunking option out of range …) come back as AppErrors, with their code. */
function revive(serialized: SerializedAppError): Error {
  const { code, userMessage, nextStep, httpStatus, retryable, details } = serialized.fields as Partial<AppError>;
  const error =
    serialized.name === 'AppError' && typeof code === 'string'
      ? new AppError({
          code,
          message: serialized.message,
          ...(userMessage !== undefined ? { userMessage } : {}),
          ...(nextStep !== undefined ? { nextStep } : {}),
          ...(httpStatus !== undefined ? { httpStatus } : {}),
          ...(retryable !== undefined ? { retryable } : {}),
          ...(details !== undefined ? { details } : {}),
        })
      : Object.assign(new Error(serialized.message), { name: serialized.name });
  if (serialized.stack) error.stack = `${serialized.stack}\n    at (the ingestion thread)`;
  return error;
}
