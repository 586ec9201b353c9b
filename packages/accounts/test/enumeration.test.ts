import { expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createAccounts, createRateLimiter, DevOutboxMailer, type RateLimiter } from '../src/index.ts';
import { installedWorkspace, logger, PUBLIC_URL } from './helpers.ts';

/** The real limiter and its database work, with limits too high to cut the sample short (limits are tested elsewhere). */
function generous(limiter: RateLimiter): RateLimiter {
  const wide = { limit: 1_000_000, windowSeconds: 900 };
  return { hit: (bucket) => limiter.hit(bucket, wide), take: async (bucket) => void (await limiter.hit(bucket, wide)) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

describeDb('link requests do not reveal which addresses are known', (suite) => {
  it('answers a known and an unknown address identically and in similar time; only the known one gets mail', async () => {
    const outbox = new DevOutboxMailer({ print: () => {}, keep: 500 });
    const accounts = createAccounts({ db: suite.db, mailer: outbox, logger, publicUrl: PUBLIC_URL, limiter: generous(createRateLimiter(suite.db)) });
    const ws = await installedWorkspace(accounts);
    await withService(suite.db, (tx) => tx.query(`update workspaces set claim_email = 'owner@example.com', claimed_at = now() where id = $1`, [ws]));
    const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    const answers = new Set<unknown>();
    for (let i = 0; i < 30; i++) {
      for (const kind of ['known', 'unknown'] as const) {
        const email = kind === 'known' ? 'owner@example.com' : `stranger${i}@example.com`;
        const start = performance.now();
        answers.add(await accounts.requestLink({ purpose: 'login', workspaceId: ws, email, ip: '192.0.2.1' }));
        timings[kind].push(performance.now() - start);
        // What follows the answer (deciding, issuing, mailing) must not bleed into the next sample.
        await accounts.drain();
      }
    }
    await accounts.drain();
    expect([...answers]).toEqual([undefined]);
    const gap = Math.abs(median(timings.known) - median(timings.unknown));
    console.log(`[enumeration] median request time: known ${median(timings.known).toFixed(2)} ms, unknown ${median(timings.unknown).toFixed(2)} ms`);
    // The decision and the mail happen after the answer, so the gap is noise, not a signal.
    expect(gap).toBeLessThan(10);
    expect(outbox.entries().filter((e) => e.to === 'owner@example.com')).toHaveLength(30);
    expect(outbox.entries().filter((e) => e.to !== 'owner@example.com')).toHaveLength(0);
  });
});
