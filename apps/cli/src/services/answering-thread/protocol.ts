import type { MessagePort } from 'node:worker_threads';
import type { BrainConfig } from '@brain/config';
import type { AskInput, AskResult } from '@brain/answer';
import type { AudienceFilter } from '@brain/db';

/** Messages between the acknowledging thread and the thread that answers questions. */

export interface ThreadStart {
  config: BrainConfig;
  /** The threaded PGlite's connection for this thread; absent in PostgreSQL mode (the thread opens its own pool). */
  database?: MessagePort;
  loggerName: string;
}

/** An ask as it crosses: its signal and its private-audience callback stay on the asking side. */
export type WireAskInput = Omit<AskInput, 'signal' | 'privateAudience'> & { hasPrivateAudience: boolean };

export type ToThread =
  /** `aborted`: the caller had given up before it was sent (its signal's reason). */
  | { type: 'ask'; id: number; input: WireAskInput; aborted?: string }
  | { type: 'abort'; id: number; reason: string }
  | { type: 'audience'; id: number; audience?: AudienceFilter; error?: WireError };

export type FromThread =
  | { type: 'ready' }
  | { type: 'failed'; error: WireError }
  | { type: 'answer'; id: number; result: AskResult }
  | { type: 'error'; id: number; error: WireError }
  | { type: 'private-audience'; id: number };

/** An error as it crossed: an AppError keeps its code, user message, next step and details. */
export interface WireError {
  app: boolean;
  name: string;
  message: string;
  stack?: string | undefined;
  fields: Record<string, unknown>;
}
