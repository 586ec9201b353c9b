import type { RateLimit } from './rate-limiter.ts';

const FIFTEEN_MINUTES = 15 * 60;

/**
 * Link requests are throttled per IP and, for claims, per workspace (both answered with a 429:
 * neither says anything about an address), and per address and requester together, silently
 * (the page looks the same; no mail goes out): others' requests cannot spend the owner's. Redemptions are throttled per IP: a token has 256 bits, but guessing still costs us work.
 */
export const LIMITS = {
  linkRequestsPerIp: { limit: 10, windowSeconds: FIFTEEN_MINUTES },
  linkRequestsPerWorkspace: { limit: 5, windowSeconds: FIFTEEN_MINUTES },
  linkRequestsPerEmail: { limit: 3, windowSeconds: FIFTEEN_MINUTES },
  redeemsPerIp: { limit: 30, windowSeconds: FIFTEEN_MINUTES },
  installsPerIp: { limit: 20, windowSeconds: FIFTEEN_MINUTES },
} satisfies Record<string, RateLimit>;
