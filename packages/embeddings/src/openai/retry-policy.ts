/**
 * When to retry a failed embeddings request, and how long to wait. Transient failures (429,
 * 5xx, 408 and 409, which OpenAI's own SDK also retries, and network errors) are retried with
 * exponential backoff and jitter, or after the server's `retry-after-ms` / `retry-after` when it
 * sends one; every other 4xx is final, since sending the same request again cannot succeed.
 */
export interface RetryPolicy {
  maxRetries: number;
  /** First backoff; doubles with each attempt. */
  baseDelayMs: number;
  /** Longest wait, for backoff and for a server's retry-after alike. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 5, baseDelayMs: 500, maxDelayMs: 60_000 };

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** "Equal jitter": half the exponential delay, plus a random share of the other half. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/**
 * The wait a response asks for, in milliseconds: `retry-after-ms` first (OpenAI sends it), then
 * `retry-after` as seconds or an HTTP date. Undefined when there is none or it cannot be read.
 */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
