import { parentPort } from 'node:worker_threads';
import { chunkConversation, chunkDocument } from '@brain/chunking';
import { embedLocally } from '@brain/embeddings';
import { yieldToMainThread } from '@brain/db/thread-priority';
import type { CpuReply, CpuRequest, SerializedAppError } from './protocol.ts';

yieldToMainThread();

// Chunking and the local embedder, off the thread that acknowledges interactions: the same
// functions the in-thread path calls, so the passages and vectors are the same.
const port = ((p) => {
  if (!p) throw new Error('thread-main runs only as a worker thread');
  return p;
})(parentPort);

function serialize(error: unknown): SerializedAppError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), stack: undefined, fields: {} };
  const fields: Record<string, unknown> = {};
  for (const key of Object.getOwnPropertyNames(error)) {
    if (key === 'name' || key === 'message' || key === 'stack') continue;
    try {
      fields[key] = structuredClone((error as unknown as Record<string, unknown>)[key]);
    } catch {
      // A field that cannot cross (a function) is left behind rather than losing the error.
    }
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

port.on('message', (request: CpuRequest) => {
  try {
    switch (request.op) {
      case 'chunk-document':
        return port.postMessage({ id: request.id, ok: true, pieces: chunkDocument(request.document) } satisfies CpuReply);
      case 'chunk-conversation': {
        const pieces = chunkConversation(request.conversation).map(({ spans, ...chunk }) => ({ ...chunk, messageSpans: spans }));
        return port.postMessage({ id: request.id, ok: true, pieces } satisfies CpuReply);
      }
      case 'embed-local': {
        const vectors = request.texts.map((text) => embedLocally(text, request.model).buffer as ArrayBuffer);
        return port.postMessage({ id: request.id, ok: true, vectors } satisfies CpuReply, vectors);
      }
    }
  } catch (error) {
    port.postMessage({ id: request.id, ok: false, error: serialize(error) } satisfies CpuReply);
  }
});
