import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Look again this often (default 20 ms). */
  intervalMs?: number;
  /** What is awaited, for the error: "the job to be done". */
  what?: string;
  /** Appended to the error on timeout (a child process's output, the last state seen). */
  details?: () => string;
}

/**
 * Resolves with the condition's first truthy value, looking every `intervalMs`; rejects after
 * `timeoutMs` naming what it waited for. Instead of a fixed sleep, which is either too short on a
 * loaded machine or wasted time on a quiet one, and instead of hand-written polling loops that
 * end silently when their count runs out.
 */
export async function waitUntil<T>(condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeoutMs = 10_000, intervalMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() >= deadline) {
      const details = options.details?.();
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${options.what ?? 'the condition'}${details ? `\n${details}` : ''}`);
    }
    await sleep(intervalMs);
  }
}

/** What a fake records its calls in: an array it appends to, or a function returning one. */
export type CallLog = readonly unknown[] | (() => readonly unknown[]);

/**
 * Asserts that a fake receives no further call for `quietMs`: that something did not happen
 * (no second delivery, no retry, no extra edit). Counts from now; rejects with the new calls.
 */
export async function expectNoMoreCalls(calls: CallLog, quietMs: number): Promise<void> {
  const read = typeof calls === 'function' ? calls : () => calls;
  const before = read().length;
  await sleep(quietMs);
  const after = read();
  if (after.length !== before) {
    throw new Error(`expected no more calls for ${quietMs} ms, got ${after.length - before}: ${JSON.stringify(after.slice(before)).slice(0, 2_000)}`);
  }
}
