import os from 'node:os';
import { documentKind } from './document-kind.ts';
import { tooLarge } from './extract-errors.ts';
import { extractPlain } from './extract-plain.ts';
import { SandboxPool, type SandboxPoolOptions } from './sandbox/sandbox-pool.ts';
import { DEFAULT_EXTRACT_LIMITS, type ExtractedDocument, type ExtractInput, type ExtractLimits } from './types.ts';

export interface ExtractorOptions extends Partial<SandboxPoolOptions> {
  /** Defaults for every document; `extract(input, limits)` can tighten or loosen per call. */
  limits?: Partial<ExtractLimits>;
}

export interface Extractor {
  extract(input: ExtractInput, limits?: Partial<ExtractLimits>): Promise<ExtractedDocument>;
  /** Starts the sandbox processes ahead of the first document (call it at worker start). */
  warm(): Promise<void>;
  /** Stops every sandbox process; pending documents fail with EXTRACT_CRASHED (retryable). */
  close(): Promise<void>;
  /** Sandbox processes started so far, and killed by a limit. */
  readonly counters: { started: number; killed: number };
}

export const DEFAULT_POOL_OPTIONS: Readonly<SandboxPoolOptions> = {
  size: Math.max(1, Math.min(2, os.availableParallelism())),
  maxHeapMb: 256,
  idleMs: 60_000,
  maxJobsPerProcess: 200,
  startTimeoutMs: 60_000,
  env: {},
};

/**
 * Text and markdown are decoded in-process (linear, capped work); HTML and PDF are parsed in a
 * sandbox process with hard memory and time limits (see sandbox-pool.ts).
 */
export function createExtractor(options: ExtractorOptions = {}): Extractor {
  const { limits: baseLimits, ...poolOptions } = options;
  const pool = new SandboxPool({ ...DEFAULT_POOL_OPTIONS, ...poolOptions });
  return {
    async extract(input, overrides) {
      const limits: ExtractLimits = { ...DEFAULT_EXTRACT_LIMITS, ...baseLimits, ...overrides };
      const kind = documentKind(input.mimeType, input.fileName);
      const size = input.bytes.byteLength;
      if (size > limits.maxInputBytes) throw tooLarge(kind === 'pdf' ? 'PDF' : 'document', size, limits.maxInputBytes);
      const charset = input.charset ?? /;\s*charset="?([^";\s]+)/i.exec(input.mimeType)?.[1]?.toLowerCase();
      if (kind === 'text' || kind === 'markdown') return extractPlain({ bytes: input.bytes, kind, url: input.url, charset }, limits);
      // A view into a larger buffer would be copied whole by IPC: send exactly the document.
      const bytes = input.bytes.byteOffset === 0 && size === input.bytes.buffer.byteLength ? input.bytes : new Uint8Array(input.bytes);
      return pool.run({ kind, bytes, url: input.url, charset, limits });
    },
    warm: () => pool.warm(),
    close: () => pool.close(),
    counters: pool.counters,
  };
}

let shared: Extractor | undefined;

/** Extracts with a process-wide extractor created on first use, with the default limits. */
export function extractDocument(input: ExtractInput, limits?: Partial<ExtractLimits>): Promise<ExtractedDocument> {
  shared ??= createExtractor();
  return shared.extract(input, limits);
}

/** Stops the shared extractor's sandbox processes (graceful shutdown). */
export async function closeSharedExtractor(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.close();
}
