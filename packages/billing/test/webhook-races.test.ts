import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgres, withService, type Database } from '@brain/db';
import { describePostgres } from '@brain/db/testing';
import { startFakeStripe, type FakeStripe } from '@brain/testkit';
import { billingFor, claimedWorkspace, paidCheckout, planOf, webhook } from './helpers.ts';

describePostgres('Stripe webhook races', (suite) => {
  let stripe: FakeStripe;
  let pools: Database[] = [];
  beforeAll(async () => {
    stripe = await startFakeStripe({ webhookSecret: 'whsec_test_secret' });
    pools = Array.from({ length: 10 }, (_, i) => openPostgres({ url: suite.url ?? '', display: `hook-${i}`, prepare: true, maxConnections: 2 }));
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await stripe.close();
  });

  it('gives 10 concurrent deliveries of one event exactly one effect', async () => {
    const ws = await claimedWorkspace(suite.db);
    const { events, subscription } = await paidCheckout(billingFor(suite.db, stripe), stripe, ws);
    const completed = events[0];
    if (!completed) throw new Error('no event');
    const reads = () => stripe.server.requests.filter((r) => r.path === `/v1/subscriptions/${String(subscription.id)}`).length;
    const before = reads();
    // Slow Stripe down, so the deliveries overlap inside their transactions.
    stripe.onSubscriptionRead = (_id, sub) => ({ body: sub, delayMs: 150 });

    const results = await Promise.all(pools.map((db) => webhook(billingFor(db, stripe), stripe, completed)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.planStatus === 'active')).toHaveLength(1);
    expect(results.filter((r) => r.body.duplicate === true)).toHaveLength(9);
    expect(reads() - before).toBe(1);
    const seen = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from stripe_events_seen where event_id = $1', [completed.id]));
    expect(seen[0]?.n).toBe(1);
    expect((await planOf(suite.db, ws)).plan_status).toBe('active');
    stripe.onSubscriptionRead = undefined;
  });

  it('ends in Stripe\'s state when different events for one workspace race', async () => {
    const ws = await claimedWorkspace(suite.db);
    const { events, subscription } = await paidCheckout(billingFor(suite.db, stripe), stripe, ws);
    const subId = subscription.id as string;
    const canceled = stripe.event('customer.subscription.deleted', stripe.updateSubscription(subId, { status: 'canceled' }));
    const all = [...events, canceled, stripe.event('customer.subscription.updated', stripe.subscriptions.get(subId) ?? {})];
    const results = await Promise.all(all.map((event, i) => webhook(billingFor(pools[i % pools.length] as Database, stripe), stripe, event)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await planOf(suite.db, ws)).plan_status).toBe('canceled');
  });
});
