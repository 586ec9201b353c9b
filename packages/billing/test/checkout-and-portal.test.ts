import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { parseStripeForm, startFakeStripe, type FakeStripe } from '@brain/testkit';
import { createBillingService } from '../src/index.ts';
import { billingFor, claimedWorkspace, links, logger, paidCheckout, policy, PRICE_ID, PUBLIC_URL, webhook } from './helpers.ts';

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe({ webhookSecret: 'whsec_test_secret' });
});
afterAll(() => stripe.close());

describeDb('checkout and the customer portal', (suite) => {
  it('starts a subscription Checkout that carries the workspace three ways, with the configured price', async () => {
    const billing = billingFor(suite.db, stripe);
    const ws = await claimedWorkspace(suite.db, 'payer@example.com');
    const { url } = await billing.startCheckout(ws);
    expect(url.startsWith(`${stripe.url}/pay/cs_test_`)).toBe(true);

    const request = stripe.server.requests.findLast((r) => r.path === '/v1/checkout/sessions');
    expect(request?.headers['stripe-version']).toBe('2026-10-28.endive');
    expect(request?.headers['idempotency-key']).toMatch(new RegExp(`^checkout:${ws}:new:\\d+$`));
    expect(parseStripeForm(request?.form ?? new URLSearchParams())).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: PRICE_ID, quantity: '1' }],
      client_reference_id: ws,
      metadata: { workspace_id: ws },
      subscription_data: { metadata: { workspace_id: ws } },
      customer_email: 'payer@example.com',
      success_url: `${links.success(ws)}`,
      cancel_url: links.cancel(ws),
    });
    expect(links.success(ws).startsWith(`${PUBLIC_URL}/billing/success?workspace=${ws}&sig=`)).toBe(true);

    // A double click within the window replays the same session.
    expect((await billing.startCheckout(ws)).url).toBe(url);
  });

  it('refuses a checkout before the claim, while a plan is live, and when Stripe is not configured', async () => {
    const billing = billingFor(suite.db, stripe);
    const [unclaimed] = await withService(suite.db, (tx) =>
      tx.query<{ id: string }>(`insert into workspaces (slug, name) values ('unclaimed-' || substr(md5(random()::text), 1, 8), 'U') returning id::text`),
    );
    const notClaimed = await billing.startCheckout(unclaimed?.id ?? '').catch((e: unknown) => e);
    expect(isAppError(notClaimed, 'WORKSPACE_NOT_CLAIMED') && notClaimed.httpStatus).toBe(409);

    const ws = await claimedWorkspace(suite.db);
    const { events } = await paidCheckout(billing, stripe, ws);
    for (const event of events) expect((await webhook(billing, stripe, event)).status).toBe(200);
    const again = await billing.startCheckout(ws).catch((e: unknown) => e);
    expect(isAppError(again, 'PLAN_ALREADY_ACTIVE') && again.toUserString()).toMatch(/\/billing/);

    const off = createBillingService({ db: suite.db, logger, gateway: undefined, priceId: undefined, links, policy: policy({ billingEnabled: false }) });
    expect(off.enabled).toBe(false);
    expect(isAppError(await off.startCheckout(ws).catch((e: unknown) => e), 'BILLING_NOT_CONFIGURED')).toBe(true);
    expect(isAppError(await off.createPortalSession(ws).catch((e: unknown) => e), 'BILLING_NOT_CONFIGURED')).toBe(true);
    expect((await off.handleWebhook(Buffer.from('{}'), 't=1,v1=x')).status).toBe(503);
  });

  it('opens the Customer Portal for a paying workspace, returning to its plan page; without a customer it points to checkout', async () => {
    const billing = billingFor(suite.db, stripe);
    const ws = await claimedWorkspace(suite.db);
    const none = await billing.createPortalSession(ws).catch((e: unknown) => e);
    expect(isAppError(none, 'BILLING_NO_CUSTOMER') && none.toUserString()).toContain(links.checkout(ws));

    const { events, subscription } = await paidCheckout(billing, stripe, ws);
    for (const event of events) await webhook(billing, stripe, event);
    const portal = await billing.createPortalSession(ws);
    expect(portal.url.startsWith(`${stripe.url}/portal/bps_test_`)).toBe(true);
    const request = stripe.server.requests.findLast((r) => r.path === '/v1/billing_portal/sessions');
    expect(Object.fromEntries(request?.form ?? [])).toEqual({ customer: subscription.customer, return_url: links.portalReturn(ws) });
    expect(isAppError(await billing.createPortalSession('not-a-uuid').catch((e: unknown) => e), 'WORKSPACE_NOT_FOUND')).toBe(true);
  });
});
