import { withService, type Database } from '@brain/db';
import { AppError } from '@brain/errors';

export interface RateLimit {
  /** Hits allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  hits: number;
  /** Seconds until the window resets (when refused). */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters in PostgreSQL, so every web instance shares them. One upsert per hit:
 * the counter resets when the window moves on, and concurrent hits cannot both take the last
 * slot. Stale buckets are swept now and then, by age.
 */
export interface RateLimiter {
  hit(bucket: string, limit: RateLimit): Promise<RateLimitDecision>;
  /** hit(), throwing RATE_LIMITED (429) when refused. */
  take(bucket: string, limit: RateLimit, what: string): Promise<void>;
}

const SWEEP_EVERY_MS = 10 * 60_000;

export function createRateLimiter(db: Database, options: { now?: () => number } = {}): RateLimiter {
  const now = options.now ?? Date.now;
  let lastSweep = now();

  async function hit(bucket: string, limit: RateLimit): Promise<RateLimitDecision> {
    const [row] = await withService(db, async (tx) => {
      if (now() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = now();
        await tx.query(`delete from public.rate_limit_counters where window_start < now() - interval '1 day'`);
      }
      return tx.query<{ hits: number; reset_in: number }>(
        `with w as (
           select to_timestamp(floor(extract(epoch from now()) / $2::int) * $2::int) as start
         )
         insert into public.rate_limit_counters as c (bucket, window_start, hits)
         select $1, w.start, 1 from w
         on conflict (bucket) do update
           set hits = case when c.window_start = excluded.window_start then c.hits + 1 else 1 end,
               window_start = excluded.window_start
         returning c.hits,
           ceil(extract(epoch from (c.window_start + make_interval(secs => $2::int) - now())))::int as reset_in`,
        [bucket.slice(0, 200), limit.windowSeconds],
      );
    });
    const hits = row?.hits ?? 1;
    return { allowed: hits <= limit.limit, hits, retryAfterSeconds: Math.max(1, row?.reset_in ?? limit.windowSeconds) };
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
