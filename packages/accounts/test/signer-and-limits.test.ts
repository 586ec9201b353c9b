import { expect, it } from 'vitest';
import { describeDb } from '@brain/db/testing';
import { createRateLimiter, maskEmail, Signer } from '../src/index.ts';

const signer = new Signer('s'.repeat(40));

it('signs per purpose and fields, and refuses tampering, other purposes and expired values', () => {
  const sig = signer.sign('csrf', ['browser-1', 'claim']);
  expect(signer.verify('csrf', ['browser-1', 'claim'], sig)).toBe(true);
  expect(signer.verify('csrf', ['browser-2', 'claim'], sig)).toBe(false);
  expect(signer.verify('grant', ['browser-1', 'claim'], sig)).toBe(false);
  expect(signer.verify('csrf', ['browser-1claim'], sig)).toBe(false);
  expect(signer.verify('csrf', ['browser-1', 'claim'], `${sig.slice(0, -1)}A`)).toBe(false);
  expect(new Signer('t'.repeat(40)).verify('csrf', ['browser-1', 'claim'], sig)).toBe(false);

  const now = Date.now();
  const timed = signer.issue('grant', ['ws'], 60, now);
  expect(signer.check('grant', ['ws'], timed, now + 59_000)).toBe(true);
  expect(signer.check('grant', ['ws'], timed, now + 61_000)).toBe(false);
  const [expiry, mac] = timed.split('.');
  expect(signer.check('grant', ['ws'], `${Number(expiry) + 3600}.${mac}`, now)).toBe(false);
  expect(() => new Signer('short')).toThrow(/32 characters/);
  expect(maskEmail('ana@example.com')).toBe('a***@example.com');
});

describeDb('rate limiter', (suite) => {
  it('allows the limit per window, refuses beyond it with the time to wait, and keeps buckets apart', async () => {
    const limiter = createRateLimiter(suite.db);
    const limit = { limit: 3, windowSeconds: 600 };
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limiter.hit('test:a', limit));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions[4]?.retryAfterSeconds).toBeGreaterThan(0);
    // The window is full: one more fits a third of the way into the next (the 3 hits then weigh 2).
    expect(decisions[4]?.retryAfterSeconds).toBeGreaterThan(200);
    expect(decisions[4]?.retryAfterSeconds).toBeLessThanOrEqual(800);
    expect((await limiter.hit('test:b', limit)).allowed).toBe(true);
  });

  it('starts a new window once the old one is over', async () => {
    const limiter = createRateLimiter(suite.db);
    const limit = { limit: 1, windowSeconds: 1 };
    await limiter.hit('test:w', limit);
    await suite.db.query(`update rate_limit_counters set window_start = window_start - interval '1 hour' where bucket = 'test:w'`);
    expect((await limiter.hit('test:w', limit)).allowed).toBe(true);
  });

  it('slides: a client that spends its allowance at the end of a window gets none back at the start of the next', async () => {
    const windowMs = 600_000;
    let at = 3000 * windowMs - 5_000;
    const limiter = createRateLimiter(suite.db, { now: () => at });
    const limit = { limit: 3, windowSeconds: 600 };
    const before = [];
    for (let i = 0; i < 3; i++) before.push((await limiter.hit('test:s', limit)).allowed);
    at += 10_000;
    const after = await limiter.hit('test:s', limit);
    expect([...before, after.allowed]).toEqual([true, true, true, false]);
    // A third of the previous window must age out before one more fits: 200 s into the new window.
    expect(after.retryAfterSeconds).toBe(195);
    at += 195_000;
    expect((await limiter.hit('test:s', limit)).allowed).toBe(true);
    const [row] = await suite.db.query<{ hits: number; previous_hits: number }>(`select hits, previous_hits from rate_limit_counters where bucket = 'test:s'`);
    expect(row).toEqual({ hits: 1, previous_hits: 3 });
  });

  it('lets only the limit through when hits race for the last slots', async () => {
    const limiter = createRateLimiter(suite.db);
    const limit = { limit: 4, windowSeconds: 3600 * 24 * 365 };
    const decisions = await Promise.all(Array.from({ length: 10 }, () => limiter.hit('test:race', limit)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(4);
  });
});
