import type { SerializedError } from '../extract-errors.ts';
import type { ExtractedDocument, ExtractLimits } from '../types.ts';

/** Parent → sandbox. */
export interface JobMessage {
  type: 'job';
  id: number;
  kind: 'html' | 'pdf';
  bytes: Uint8Array;
  url?: string;
  charset?: string;
  limits: ExtractLimits;
}

/** Sandbox → parent. */
export type SandboxMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; document: ExtractedDocument }
  | { type: 'error'; id: number; error: SerializedError };
