import { withService, type Database } from '@brain/db';
import { AppError } from '@brain/errors';
import { slidingDecision } from './sliding-window.ts';

export interface RateLimit {
  /** Hits allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Admitted hits the decision weighed, this one included when allowed (the previous window's scaled). */
  hits: number;
  /** Seconds until a hit would be admitted again (when refused). */
  retryAfterSeconds: number;
}

/**
 * Sliding-window counters in PostgreSQL, so every web instance shares them. One row per bucket
 * holds the current window's admitted hits and the previous window's; the row is locked for the
 * decision, so concurrent hits cannot both take the last slot. Stale buckets are swept now and
 * then, by age. Time comes from `now` (the process clock), so tests can place a hit anywhere in a
 * window.
 */
export interface RateLimiter {
  hit(bucket: string, limit: RateLimit): Promise<RateLimitDecision>;
  /** hit(), throwing RATE_LIMITED (429) when refused. */
  take(bucket: string, limit: RateLimit, what: string): Promise<void>;
}

const SWEEP_EVERY_MS = 10 * 60_000;

type CounterRow = {
  window_start_ms: number;
  hits: number;
  previous_hits: number;
};

export function createRateLimiter(db: Database, options: { now?: () => number } = {}): RateLimiter {
  const now = options.now ?? Date.now;
  let lastSweep = now();

  async function hit(bucket: string, limit: RateLimit): Promise<RateLimitDecision> {
    const key = bucket.slice(0, 200);
    return withService(db, async (tx) => {
      const at = now();
      if (at - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = at;
        await tx.query(`delete from public.rate_limit_counters where window_start < to_timestamp($1::double precision / 1000) - interval '1 day'`, [at]);
      }
      // A first hit's row exists before it is locked, so two first hits queue on the same row. Its
      // window lies long past, so the decision starts it afresh.
      await tx.query(
        `insert into public.rate_limit_counters (bucket, window_start, hits, previous_hits)
         values ($1, to_timestamp(0), 0, 0) on conflict (bucket) do nothing`,
        [key],
      );
      const [row] = await tx.query<CounterRow>(
        `select (extract(epoch from window_start) * 1000)::float8 as window_start_ms, hits, previous_hits
           from public.rate_limit_counters where bucket = $1 for update`,
        [key],
      );
      const decision = slidingDecision(row ? { windowStartMs: row.window_start_ms, hits: row.hits, previousHits: row.previous_hits } : undefined, limit, at);
      await tx.query(
        `update public.rate_limit_counters
            set window_start = to_timestamp($2::double precision / 1000), hits = $3, previous_hits = $4
          where bucket = $1`,
        [key, decision.counter.windowStartMs, decision.counter.hits, decision.counter.previousHits],
      );
      return { allowed: decision.allowed, hits: decision.weighedHits, retryAfterSeconds: decision.retryAfterSeconds };
    });
  }

  return {
    hit,
    async take(bucket, limit, what) {
      const decision = await hit(bucket, limit);
      if (decision.allowed) return;
      const minutes = Math.ceil(decision.retryAfterSeconds / 60);
      throw new AppError({
        code: 'RATE_LIMITED',
        message: `Rate limit ${bucket} exceeded (${decision.hits}/${limit.limit} in ${limit.windowSeconds}s).`,
        userMessage: `Too many ${what} for now.`,
        nextStep: `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        httpStatus: 429,
        details: { retryAfterSeconds: decision.retryAfterSeconds },
      });
    },
  };
}
