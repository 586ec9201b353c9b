import type { LocalModel } from '@brain/embeddings';
import type { ChunkPiece, ConversationMessageInput } from '../pipeline/ingest-services.ts';

/** Work the ingestion CPU thread does: pure functions of their input, so any thread gives the same answer. */
export type CpuTask =
  | { op: 'chunk-document'; document: { title: string; text: string } }
  | { op: 'chunk-conversation'; conversation: { title: string; messages: ConversationMessageInput[] } }
  | { op: 'embed-local'; model: LocalModel; texts: string[] };

export type CpuRequest = CpuTask & { id: number };

export interface SerializedAppError {
  name: string;
  message: string;
  stack: string | undefined;
  /** AppError's own fields (code, userMessage, nextStep, retryable, details …), when it is one. */
  fields: Record<string, unknown>;
}

export type CpuReply =
  | { id: number; ok: true; pieces: ChunkPiece[] }
  /** One Float64Array's buffer per text, transferred rather than copied. */
  | { id: number; ok: true; vectors: ArrayBuffer[] }
  | { id: number; ok: false; error: SerializedAppError };
