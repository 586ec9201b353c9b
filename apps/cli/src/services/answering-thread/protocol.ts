import type { MessagePort } from 'node:worker_threads';
import type { BrainConfig } from '@brain/config';
import type { AskInput, AskResult } from '@brain/answer';
import type { AudienceFilter } from '@brain/db';
import type { DeferredOutcome, DeferredWork, InteractionDedupe } from '@brain/discord';

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
  | { type: 'audience'; id: number; audience?: AudienceFilter; error?: WireError }
  /** Deferred interactions may follow: what the thread needs to do their work as the acknowledging thread would. */
  | { type: 'serve-interactions'; setup: InteractionSetup }
  /** Acknowledged interactions (a batch) whose work (entitlement, audience, answer, the reply's edits) is the thread's. */
  | { type: 'interactions'; items: { id: number; work: DeferredWork }[] }
  /** Shutdown: let the interactions' work finish within `graceMs`, then stop it (it edits its reply), then say 'drained'. */
  | { type: 'drain'; graceMs: number };

/** What the thread's interaction work needs beyond the configuration. */
export interface InteractionSetup {
  /** The CLI's local workspace: never metered. */
  localWorkspaceId: string;
  /** The one the acknowledging thread signs with, so a checkout link in a refusal verifies there. */
  cookieSecret: string;
  dedupe: InteractionDedupe;
}

export type FromThread =
  | { type: 'ready' }
  | { type: 'failed'; error: WireError }
  | { type: 'answer'; id: number; result: AskResult }
  | { type: 'error'; id: number; error: WireError }
  | { type: 'private-audience'; id: number }
  | { type: 'interaction-done'; id: number; outcome: DeferredOutcome }
  /** The work ended without its outcome (it threw past its own edit): the acknowledging thread edits the error in. */
  | { type: 'interaction-lost'; id: number; error: WireError }
  | { type: 'drained' };

/** An error as it crossed: an AppError keeps its code, user message, next step and details. */
export interface WireError {
  app: boolean;
  name: string;
  message: string;
  stack?: string | undefined;
  fields: Record<string, unknown>;
}
