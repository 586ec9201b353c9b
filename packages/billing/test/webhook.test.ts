import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { startFakeStripe, type FakeStripe } from '@brain/testkit';
import { billingFor, claimedWorkspace, paidCheckout, planOf, webhook } from './helpers.ts';

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe({ webhookSecret: 'whsec_test_secret' });
});
afterAll(() => stripe.close());

const subscriptionReads = (subId: string) => stripe.server.requests.filter((r) => r.path === `/v1/subscriptions/${subId}`).length;

describeDb('POST /stripe/webhook processing', (suite) => {
  it('activates a workspace from checkout.session.completed, with customer, subscription and period from Stripe', async () => {
    const billing = billingFor(suite.db, stripe);
    const ws = await claimedWorkspace(suite.db);
    const { events, subscription } = await paidCheckout(billing, stripe, ws);
    const completed = events.find((e) => e.type === 'checkout.session.completed');
    if (!completed) throw new Error('no checkout event');
    expect(await webhook(billing, stripe, completed)).toEqual({ status: 200, body: { received: true, planStatus: 'active' } });
    const plan = await planOf(suite.db, ws);
    expect(plan).toMatchObject({ plan_status: 'active', stripe_customer_id: subscription.customer, stripe_subscription_id: subscription.id, past_due_since: null });
    expect(new Date(plan.plan_period_end ?? 0).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);
    const seen = await withService(suite.db, (tx) => tx.query('select type from stripe_events_seen where event_id = $1', [completed.id]));
    expect(seen).toEqual([{ type: 'checkout.session.completed' }]);
  });

  it('answers a duplicate 200 without any effect', async () => {
    const billing = billingFor(suite.db, stripe);
    const ws = await claimedWorkspace(suite.db);
    const { events, subscription } = await paidCheckout(billing, stripe, ws);
    const created = events.find((e) => e.type === 'customer.subscription.created');
    if (!created) throw new Error('no event');
    await webhook(billing, stripe, created);
    const reads = subscriptionReads(subscription.id as string);
    const synced = (await planOf(suite.db, ws)).plan_synced_at;
    // Stripe changes the subscription meanwhile: a replay must not pick that up (it has no effect at all).
    stripe.updateSubscription(subscription.id as string, { status: 'past_due' });
    expect(await webhook(billing, stripe, created)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(subscriptionReads(subscription.id as string)).toBe(reads);
    expect(await planOf(suite.db, ws)).toMatchObject({ plan_status: 'active', plan_synced_at: synced });
  });

  it('ends in Stripe\'s current state whatever order the subscription events arrive in', async () => {
    const billing = billingFor(suite.db, stripe);
    const ws = await claimedWorkspace(suite.db);
    const { events, subscription } = await paidCheckout(billing, stripe, ws);
    const subId = subscription.id as string;
    const updated = stripe.event('customer.subscription.updated', stripe.updateSubscription(subId, { cancel_at_period_end: true }));
    const deleted = stripe.event('customer.subscription.deleted', stripe.updateSubscription(subId, { status: 'canceled' }));
    // Newest first, then the old ones: the old payloads say "active", Stripe says "canceled".
    for (const event of [deleted, updated, ...events.reverse()]) expect((await webhook(billing, stripe, event)).status).toBe(200);
    expect(await planOf(suite.db, ws)).toMatchObject({ plan_status: 'canceled', stripe_subscription_id: subId, plan_cancel_at_period_end: true });
  });

  it('moves to past_due on invoice.payment_failed and back to active on invoice.paid, keeping when it first went past due', async () => {
    const billing = billingFor(suite.db, stripe);
    const ws = await claimedWorkspace(suite.db);
    const { events, subscription } = await paidCheckout(billing, stripe, ws);
    const subId = subscription.id as string;
    for (const event of events) await webhook(billing, stripe, event);
    stripe.updateSubscription(subId, { status: 'past_due' });
    await webhook(billing, stripe, stripe.event('invoice.payment_failed', stripe.invoiceFor(subId, 'open')));
    const first = await planOf(suite.db, ws);
    expect(first.plan_status).toBe('past_due');
    expect(first.past_due_since).not.toBeNull();
    await webhook(billing, stripe, stripe.event('invoice.payment_failed', stripe.invoiceFor(subId, 'open')));
    expect((await planOf(suite.db, ws)).past_due_since).toEqual(first.past_due_since);

    stripe.updateSubscription(subId, { status: 'active', current_period_end: Math.floor(Date.now() / 1000) + 60 * 86400 });
    expect((await webhook(billing, stripe, stripe.event('invoice.paid', stripe.invoiceFor(subId, 'paid')))).body).toMatchObject({ planStatus: 'active' });
    const recovered = await planOf(suite.db, ws);
    expect(recovered).toMatchObject({ plan_status: 'active', past_due_since: null });
    expect(new Date(recovered.plan_period_end ?? 0).getTime()).toBeGreaterThan(Date.now() + 59 * 86400_000);
  });

  it('refuses a bad signature, a stale or future timestamp, a re-serialised body and a missing header with 400, recording nothing', async () => {
    const billing = billingFor(suite.db, stripe);
    const ws = await claimedWorkspace(suite.db);
    const { events } = await paidCheckout(billing, stripe, ws);
    const event = events[0];
    if (!event) throw new Error('no event');
    const now = Math.floor(Date.now() / 1000);

    const forged = stripe.sign(event, { secret: 'whsec_attacker' });
    expect((await billing.handleWebhook(Buffer.from(forged.body), forged.headers['stripe-signature'])).status).toBe(400);
    expect((await webhook(billing, stripe, event, now - 301)).status).toBe(400);
    expect((await webhook(billing, stripe, event, now + 3600)).status).toBe(400);
    const stale = await webhook(billing, stripe, event, now - 301);
    expect(stale.body).toMatchObject({ error: 'WEBHOOK_SIGNATURE_INVALID' });
    const signed = stripe.sign(event);
    const reparsed = JSON.stringify(JSON.parse(signed.body));
    expect((await billing.handleWebhook(Buffer.from(reparsed), signed.headers['stripe-signature'])).status).toBe(400);
    expect((await billing.handleWebhook(Buffer.from(signed.body), undefined)).status).toBe(400);
    expect((await billing.handleWebhook(Buffer.from(signed.body), [signed.headers['stripe-signature'] ?? '', 'x'])).status).toBe(400);

    const seen = await withService(suite.db, (tx) => tx.query('select 1 from stripe_events_seen where event_id = $1', [event.id]));
    expect(seen).toEqual([]);
    expect((await planOf(suite.db, ws)).plan_status).toBe('none');
    // Within the tolerance, the same event is accepted.
    expect((await webhook(billing, stripe, event, now - 200)).status).toBe(200);
  });

  it('acknowledges unhandled event types and events for no known workspace without retry storms', async () => {
    const billing = billingFor(suite.db, stripe);
    expect(await webhook(billing, stripe, stripe.event('customer.created', { id: 'cus_x', object: 'customer' }))).toEqual({
      status: 200,
      body: { received: true, ignored: 'event type not handled' },
    });
    const orphan = stripe.event('customer.subscription.updated', { id: 'sub_missing', object: 'subscription', metadata: {}, customer: 'cus_nobody' });
    expect((await webhook(billing, stripe, orphan)).body).toMatchObject({ received: true, ignored: expect.stringContaining('no workspace') });
  });

  it('answers 503 when Stripe is unreachable, recording nothing, so the retry applies the event', async () => {
    const billing = billingFor(suite.db, stripe);
    const ws = await claimedWorkspace(suite.db);
    const { events } = await paidCheckout(billing, stripe, ws);
    const completed = events[0];
    if (!completed) throw new Error('no event');
    stripe.onSubscriptionRead = () => ({ status: 500, body: { error: { type: 'api_error', message: 'boom' } } });
    const failed = await webhook(billing, stripe, completed);
    expect(failed.status).toBe(503);
    const seen = await withService(suite.db, (tx) => tx.query('select 1 from stripe_events_seen where event_id = $1', [completed.id]));
    expect(seen).toEqual([]);
    stripe.onSubscriptionRead = undefined;
    expect((await webhook(billing, stripe, completed)).body).toMatchObject({ planStatus: 'active' });
  });

  it('never moves a subscription to another workspace, whatever the payload claims', async () => {
    const billing = billingFor(suite.db, stripe);
    const owner = await claimedWorkspace(suite.db);
    const intruder = await claimedWorkspace(suite.db);
    const { subscription } = await paidCheckout(billing, stripe, owner);
    const forgedSession = stripe.event('checkout.session.completed', {
      id: 'cs_forged',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: intruder,
      subscription: subscription.id,
      customer: subscription.customer,
      metadata: {},
    });
    expect((await webhook(billing, stripe, forgedSession)).body).toMatchObject({ ignored: expect.stringContaining('belongs to workspace') });
    expect((await planOf(suite.db, intruder)).plan_status).toBe('none');
  });
});
