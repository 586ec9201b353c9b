import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The check every /metrics endpoint (the web's, a separate worker's) applies for
 * BRAIN_METRICS_TOKEN: with a token, the Authorization header must be `Bearer <token>`; without
 * one, everything passes. Compared as digests: equal length, constant time, and the token's
 * length is not revealed.
 */
export function bearerTokenCheck(token: string | undefined): (authorization: string | undefined) => boolean {
  if (!token) return () => true;
  const expected = digest(`Bearer ${token}`);
  return (authorization) => typeof authorization === 'string' && timingSafeEqual(digest(authorization), expected);
}
