import type { RateLimit } from './rate-limiter.ts';

export interface Counter {
  /** Start of the window `hits` belongs to, on a multiple of the window length (ms since the epoch). */
  windowStartMs: number;
  /** Admitted hits in that window. */
  hits: number;
  /** Admitted hits in the window just before it. */
  previousHits: number;
}

export interface SlidingDecision {
  allowed: boolean;
  /** The counter to store: rolled to the window of `at`, with this hit added when allowed. */
  counter: Counter;
  /** The hits weighed: the previous window's, scaled, plus the current window's with this one. */
  weighedHits: number;
  retryAfterSeconds: number;
}

/**
 * The sliding-window estimate: the previous window's admitted hits count in proportion to how
 * much of it still lies within one window length of `at`. A fixed window would admit `limit`
 * hits just before its end and `limit` more just after; this admits at most about `limit` in any
 * window length. Only admitted hits are counted, so a client that is refused is admitted again
 * once its earlier hits have aged, however often it knocked meanwhile.
 */
export function slidingDecision(stored: Counter | undefined, limit: RateLimit, at: number): SlidingDecision {
  const windowMs = limit.windowSeconds * 1000;
  const windowStartMs = Math.floor(at / windowMs) * windowMs;
  const rolled = roll(stored, windowStartMs, windowMs);
  const elapsedMs = at - windowStartMs;
  const previousShare = (windowMs - elapsedMs) / windowMs;
  // Compared without division so a hit exactly on the limit is admitted.
  const allowed = rolled.previousHits * (windowMs - elapsedMs) + (rolled.hits + 1) * windowMs <= limit.limit * windowMs;
  const counter = allowed ? { ...rolled, hits: rolled.hits + 1 } : rolled;
  return {
    allowed,
    counter,
    weighedHits: Math.round((rolled.previousHits * previousShare + rolled.hits + 1) * 100) / 100,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(msUntilAdmitted(rolled, limit.limit, windowMs, elapsedMs) / 1000)),
  };
}

function roll(stored: Counter | undefined, windowStartMs: number, windowMs: number): Counter {
  if (!stored || stored.windowStartMs < windowStartMs - windowMs) return { windowStartMs, hits: 0, previousHits: 0 };
  if (stored.windowStartMs === windowStartMs - windowMs) return { windowStartMs, hits: 0, previousHits: stored.hits };
  // The current window, or (a clock that stepped back) a later one: keep what it holds.
  if (stored.windowStartMs >= windowStartMs) return { ...stored, windowStartMs: Math.max(stored.windowStartMs, windowStartMs) };
  // Between two window starts: a row written under another window length. Start afresh.
  return { windowStartMs, hits: 0, previousHits: 0 };
}

/** How long until one more hit fits, if nothing else is admitted meanwhile. */
function msUntilAdmitted(counter: Counter, limit: number, windowMs: number, elapsedMs: number): number {
  if (limit < 1) return windowMs;
  const room = limit - counter.hits - 1;
  if (room >= 0 && counter.previousHits > 0) {
    // Within this window, once the previous window's share has shrunk to the room left.
    const needed = (windowMs * (counter.previousHits - room)) / counter.previousHits;
    return Math.max(0, needed - elapsedMs);
  }
  // In the next window, once this window's hits (then the previous) have shrunk to limit - 1.
  const beyond = counter.hits > 0 ? (windowMs * Math.max(0, counter.hits - (limit - 1))) / counter.hits : 0;
  return windowMs - elapsedMs + beyond;
}
