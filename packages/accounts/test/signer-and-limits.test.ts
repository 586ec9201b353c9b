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
    expect(decisions[4]?.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect((await limiter.hit('test:b', limit)).allowed).toBe(true);
  });

  it('starts a new window once the old one is over', async () => {
    const limiter = createRateLimiter(suite.db);
    const limit = { limit: 1, windowSeconds: 1 };
    await limiter.hit('test:w', limit);
    await suite.db.query(`update rate_limit_counters set window_start = window_start - interval '1 hour' where bucket = 'test:w'`);
    expect((await limiter.hit('test:w', limit)).allowed).toBe(true);
  });
});
