import { afterAll, beforeAll, expect, it } from 'vitest';
import Stripe from 'stripe';
import { parseStripeForm, startFakeDiscordOAuth, startFakeStripe, type FakeDiscordOAuth, type FakeStripe } from '../src/index.ts';

let stripe: FakeStripe;
let discord: FakeDiscordOAuth;
beforeAll(async () => {
  stripe = await startFakeStripe({ webhookSecret: 'whsec_fake' });
  discord = await startFakeDiscordOAuth({ clientId: '1', clientSecret: 's' });
});
afterAll(async () => {
  await stripe.close();
  await discord.close();
});

it('turns Stripe form bodies back into nested objects and arrays', () => {
  const form = new URLSearchParams('mode=subscription&line_items[0][price]=p&line_items[0][quantity]=1&subscription_data[metadata][workspace_id]=w&expand[0]=a&expand[1]=b');
  expect(parseStripeForm(form)).toEqual({
    mode: 'subscription',
    line_items: [{ price: 'p', quantity: '1' }],
    subscription_data: { metadata: { workspace_id: 'w' } },
    expand: ['a', 'b'],
  });
});

it('answers stripe-node like Stripe: sessions, replays by idempotency key, subscriptions, 404s with resource_missing', async () => {
  const client = new Stripe('sk_test_x', { host: '127.0.0.1', port: stripe.server.port, protocol: 'http', maxNetworkRetries: 0 });
  const params = { mode: 'subscription' as const, line_items: [{ price: 'price_1', quantity: 1 }], success_url: 'https://x/s?id={CHECKOUT_SESSION_ID}', client_reference_id: 'ws' };
  const session = await client.checkout.sessions.create(params, { idempotencyKey: 'k1' });
  expect((await client.checkout.sessions.create(params, { idempotencyKey: 'k1' })).id).toBe(session.id);
  const { subscription } = stripe.completeCheckout(session.id);
  const read = await client.subscriptions.retrieve(subscription.id as string);
  expect(read.status).toBe('active');
  expect(read.items.data[0]?.price.id).toBe('price_1');
  const missing = await client.subscriptions.retrieve('sub_nope').catch((e: unknown) => e as { type: string; code: string });
  expect(missing).toMatchObject({ type: 'StripeInvalidRequestError', code: 'resource_missing' });
  const other = new Stripe('rk_live_x', { host: '127.0.0.1', port: stripe.server.port, protocol: 'http', maxNetworkRetries: 0 });
  const unauthorized: unknown = await other.subscriptions.retrieve('x').catch((e: unknown) => e);
  expect(unauthorized).toMatchObject({ type: 'StripeAuthenticationError' });
});

it('signs webhooks that stripe-node verifies, and only with the right secret', () => {
  const event = stripe.event('customer.created', { id: 'cus_1', object: 'customer' });
  const signed = stripe.sign(event);
  expect(Stripe.webhooks.constructEvent(signed.body, signed.headers['stripe-signature'] ?? '', 'whsec_fake').id).toBe(event.id);
  expect(() => Stripe.webhooks.constructEvent(signed.body, signed.headers['stripe-signature'] ?? '', 'whsec_other')).toThrow(/No signatures found/);
});

it('refuses an authorize URL without the bot scope or a state, as a careful fake of Discord should', () => {
  const base = `${discord.url}/oauth2/authorize?client_id=1&response_type=code&redirect_uri=${encodeURIComponent('http://x/cb')}`;
  expect(() => discord.authorize(`${base}&scope=identify&state=s`)).toThrow(/bot scope/);
  expect(() => discord.authorize(`${base}&scope=bot`)).toThrow(/state/);
  expect(new URL(discord.authorize(`${base}&scope=bot&state=s`)).searchParams.get('state')).toBe('s');
});
