import type { FakeResponse, RecordedRequest } from './fake-http-server.ts';

/** Discord's published global limit for a bot: requests per second across every route. */
export const DISCORD_GLOBAL_PER_SECOND = 50;

export interface RateLimitCounts {
  /** 429s with `global: true` (the bot's 50/s spent). */
  global: number;
  /** 429s of a route bucket (or forced by `forceNext`). */
  route: number;
}

export interface FakeRateLimits {
  /**
   * Passes a request through the global window of its bot token, then its route bucket (route ×
   * top-level resource, as Discord counts them). Returns the 429 to send, or the bucket headers
   * a 2xx carries.
   */
  admit(req: RecordedRequest, route: string, resourceId: string): { reject?: FakeResponse; headers: Record<string, string> };
  /** The next `count` requests get a route 429 with `retry_after` (seconds). */
  forceNext(count: number, retryAfterSeconds: number): void;
  /** Every route's bucket, or one route's: `limit` requests per `windowMs`. */
  setBucket(limit: number, windowMs: number, route?: string): void;
  /** The global limit in requests per second (Discord's is 50); Infinity switches it off. */
  setGlobal(perSecond: number): void;
  counts(): RateLimitCounts;
}

/**
 * Discord's REST rate limits as its docs describe them (topics/rate-limits): a global limit per
 * bot of 50 requests a second, whose 429 carries `X-RateLimit-Global: true`,
 * `X-RateLimit-Scope: global`, `Retry-After` and `{message, retry_after, global: true}` without
 * bucket headers; and per-route buckets counted per top-level resource, announced on every answer
 * in `X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Reset-After` and `-Bucket`, whose 429 adds
 * `Retry-After` and `X-RateLimit-Scope: user`. Windows are fixed (a bucket refills at its reset).
 */
export function createFakeRateLimits(options: { bucket?: { limit: number; windowMs: number }; globalPerSecond?: number } = {}): FakeRateLimits {
  let defaultBucket = options.bucket ?? { limit: 50, windowMs: 1000 };
  const routeBuckets = new Map<string, { limit: number; windowMs: number }>();
  let globalPerSecond = options.globalPerSecond ?? DISCORD_GLOBAL_PER_SECOND;
  const windows = new Map<string, { resetAt: number; used: number }>();
  const globals = new Map<string, { resetAt: number; used: number }>();
  let forced = { count: 0, retryAfter: 0 };
  const counts: RateLimitCounts = { global: 0, route: 0 };
  const body = (retryAfter: number, global: boolean) => ({ message: 'You are being rate limited.', retry_after: retryAfter, global });

  return {
    admit(req, route, resourceId) {
      const now = Date.now();
      const token = String(req.headers.authorization ?? '');
      let g = globals.get(token);
      if (!g || g.resetAt <= now) {
        g = { resetAt: now + 1000, used: 0 };
        globals.set(token, g);
      }
      if (g.used >= globalPerSecond) {
        counts.global += 1;
        const retryAfter = Number(((g.resetAt - now) / 1000).toFixed(3));
        return {
          reject: {
            status: 429,
            headers: { 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
            body: body(retryAfter, true),
          },
          headers: {},
        };
      }
      g.used += 1;

      const bucket = routeBuckets.get(route) ?? defaultBucket;
      const key = `${route}:${resourceId}`;
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { resetAt: now + bucket.windowMs, used: 0 };
        windows.set(key, window);
      }
      const resetAfter = (window.resetAt - now) / 1000;
      const headers = (remaining: number) => ({
        'x-ratelimit-limit': String(bucket.limit),
        'x-ratelimit-remaining': String(Math.max(0, remaining)),
        'x-ratelimit-reset': (window.resetAt / 1000).toFixed(3),
        'x-ratelimit-reset-after': resetAfter.toFixed(3),
        'x-ratelimit-bucket': `fake-${route}`,
      });
      const tooMany = (retryAfter: number): FakeResponse => {
        counts.route += 1;
        return {
          status: 429,
          headers: { ...headers(0), 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-scope': 'user' },
          body: body(retryAfter, false),
        };
      };
      if (forced.count > 0) {
        forced = { ...forced, count: forced.count - 1 };
        return { reject: tooMany(forced.retryAfter), headers: {} };
      }
      if (window.used >= bucket.limit) return { reject: tooMany(resetAfter), headers: {} };
      window.used += 1;
      return { headers: headers(bucket.limit - window.used) };
    },
    forceNext: (count, retryAfter) => void (forced = { count, retryAfter }),
    setBucket(limit, windowMs, route) {
      if (route) routeBuckets.set(route, { limit, windowMs });
      else {
        defaultBucket = { limit, windowMs };
        routeBuckets.clear();
      }
    },
    setGlobal: (perSecond) => void (globalPerSecond = perSecond),
    counts: () => ({ ...counts }),
  };
}
