import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { startFakeHttpServer, type FakeHttpServer, type FakeResponse } from './fake-http-server.ts';
import { parseStripeForm } from './stripe-form.ts';

type Obj = Record<string, unknown>;

export interface FakeStripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Obj };
}

export interface SignedDelivery {
  body: string;
  headers: Record<string, string>;
}

export interface FakeStripe {
  /** STRIPE_API_BASE, e.g. http://127.0.0.1:PORT */
  url: string;
  server: FakeHttpServer;
  webhookSecret: string;
  /** Where completeCheckout() and the hosted pay page deliver events (POST /stripe/webhook). */
  webhookUrl: string | undefined;
  customers: Map<string, Obj>;
  checkoutSessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  portalSessions: Map<string, Obj>;
  /** Lets a test answer GET /v1/subscriptions/:id itself (an outage, a slow Stripe); undefined falls through. */
  onSubscriptionRead: ((id: string, subscription: Obj | undefined) => FakeResponse | undefined) | undefined;
  /** Pays an open Checkout Session: customer, active subscription, and the events Stripe would send. */
  completeCheckout(sessionId: string): { session: Obj; subscription: Obj; events: FakeStripeEvent[] };
  /** Changes a subscription as the Dashboard or dunning would; returns its new state. */
  updateSubscription(id: string, patch: { status?: string; cancel_at_period_end?: boolean; current_period_end?: number }): Obj;
  event(type: string, object: Obj): FakeStripeEvent;
  invoiceFor(subscriptionId: string, status: 'paid' | 'open'): Obj;
  /** A webhook body and its Stripe-Signature header, signed with generateTestHeaderString. */
  sign(event: FakeStripeEvent | string, options?: { timestamp?: number; secret?: string }): SignedDelivery;
  /** Signs and POSTs an event to webhookUrl (or `url`). */
  deliver(event: FakeStripeEvent, options?: { url?: string; timestamp?: number }): Promise<Response>;
  close(): Promise<void>;
}

const API_VERSION = '2026-10-28.endive';
const id = (prefix: string) => `${prefix}_test_${randomBytes(9).toString('base64url')}`;
const now = () => Math.floor(Date.now() / 1000);
const missing = (what: string, which: string) => ({
  status: 404,
  body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${which}'`, param: 'id' } },
});

/**
 * Enough of Stripe's API for stripe-node (pointed here with { host, port, protocol: 'http' }):
 * Checkout Sessions (with Stripe's idempotency-key replay), Subscriptions, Customers and
 * Billing Portal Sessions, plus a hosted pay page that, like Checkout, creates the subscription,
 * sends the signed webhooks and returns the browser to success_url.
 */
export async function startFakeStripe(options: { webhookSecret: string; webhookUrl?: string }): Promise<FakeStripe> {
  const server = await startFakeHttpServer('stripe');
  const replies = new Map<string, Obj>();

  const fake: FakeStripe = {
    url: server.url,
    server,
    webhookSecret: options.webhookSecret,
    webhookUrl: options.webhookUrl,
    customers: new Map(),
    checkoutSessions: new Map(),
    subscriptions: new Map(),
    portalSessions: new Map(),
    onSubscriptionRead: undefined,
    completeCheckout(sessionId) {
      const session = fake.checkoutSessions.get(sessionId);
      if (!session || session.status !== 'open') throw new Error(`fake Stripe: no open checkout session ${sessionId}`);
      let customer = typeof session.customer === 'string' ? session.customer : undefined;
      if (!customer) {
        customer = id('cus');
        fake.customers.set(customer, { id: customer, object: 'customer', email: session.customer_email ?? null, metadata: {} });
      }
      const lineItems = (session._line_items as Obj[] | undefined) ?? [];
      const subscriptionData = (session._subscription_data as Obj | undefined) ?? {};
      const subscription: Obj = {
        id: id('sub'),
        object: 'subscription',
        customer,
        status: 'active',
        cancel_at_period_end: false,
        canceled_at: null,
        created: now(),
        metadata: subscriptionData.metadata ?? {},
        items: {
          object: 'list',
          data: lineItems.map((item) => ({
            id: id('si'),
            object: 'subscription_item',
            price: { id: item.price, object: 'price', recurring: { interval: 'month' } },
            quantity: Number(item.quantity ?? 1),
            current_period_start: now(),
            current_period_end: now() + 30 * 86400,
          })),
        },
      };
      fake.subscriptions.set(subscription.id as string, subscription);
      Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: subscription.id });
      const events = [
        fake.event('checkout.session.completed', publicView(session)),
        fake.event('customer.subscription.created', subscription),
        fake.event('invoice.paid', fake.invoiceFor(subscription.id as string, 'paid')),
      ];
      return { session, subscription, events };
    },
    updateSubscription(subId, patch) {
      const sub = fake.subscriptions.get(subId);
      if (!sub) throw new Error(`fake Stripe: no subscription ${subId}`);
      if (patch.status !== undefined) sub.status = patch.status;
      if (patch.status === 'canceled') sub.canceled_at = now();
      if (patch.cancel_at_period_end !== undefined) sub.cancel_at_period_end = patch.cancel_at_period_end;
      if (patch.current_period_end !== undefined) {
        for (const item of (sub.items as { data: Obj[] }).data) item.current_period_end = patch.current_period_end;
      }
      return structuredClone(sub);
    },
    event(type, object) {
      return {
        id: id('evt'),
        object: 'event',
        type,
        created: now(),
        api_version: API_VERSION,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: structuredClone(object) },
      };
    },
    invoiceFor(subscriptionId, status) {
      const sub = fake.subscriptions.get(subscriptionId);
      return {
        id: id('in'),
        object: 'invoice',
        customer: sub?.customer ?? null,
        status,
        attempt_count: status === 'paid' ? 1 : 2,
        billing_reason: 'subscription_cycle',
        period_end: now(),
        parent: {
          type: 'subscription_details',
          quote_details: null,
          subscription_details: { subscription: subscriptionId, metadata: sub?.metadata ?? {} },
        },
      };
    },
    sign(event, signOptions = {}) {
      const body = typeof event === 'string' ? event : JSON.stringify(event, null, 2);
      const header = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: signOptions.secret ?? fake.webhookSecret,
        ...(signOptions.timestamp !== undefined ? { timestamp: signOptions.timestamp } : {}),
      });
      return { body, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header } };
    },
    async deliver(event, deliverOptions = {}) {
      const target = deliverOptions.url ?? fake.webhookUrl;
      if (!target) throw new Error('fake Stripe: no webhook URL to deliver to');
      const signed = fake.sign(event, deliverOptions.timestamp !== undefined ? { timestamp: deliverOptions.timestamp } : {});
      return fetch(target, { method: 'POST', headers: signed.headers, body: signed.body });
    },
    close: () => server.close(),
  };

  const authorized = (header: unknown) => typeof header === 'string' && /^Bearer sk_test_/.test(header);
  const unauthorized = { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };

  server.on('POST', '/v1/checkout/sessions', (req) => {
    if (!authorized(req.headers.authorization)) return unauthorized;
    const key = String(req.headers['idempotency-key'] ?? '');
    const replay = key ? replies.get(key) : undefined;
    if (replay) return { body: replay };
    const params = parseStripeForm(req.form ?? new URLSearchParams());
    if (params.mode !== 'subscription' || !Array.isArray(params.line_items) || !params.success_url) {
      return { status: 400, body: { error: { type: 'invalid_request_error', message: 'mode, line_items and success_url are required' } } };
    }
    const sessionId = id('cs');
    const session: Obj = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: `${server.url}/pay/${sessionId}`,
      client_reference_id: params.client_reference_id ?? null,
      customer: params.customer ?? null,
      customer_email: params.customer_email ?? null,
      metadata: params.metadata ?? {},
      subscription: null,
      success_url: text(params.success_url).replace('{CHECKOUT_SESSION_ID}', sessionId),
      cancel_url: params.cancel_url ?? null,
      _line_items: params.line_items,
      _subscription_data: params.subscription_data ?? {},
    };
    fake.checkoutSessions.set(sessionId, session);
    const reply = publicView(session);
    if (key) replies.set(key, reply);
    return { body: reply };
  });

  server.on('GET', '/v1/checkout/sessions/:id', (req) => {
    if (!authorized(req.headers.authorization)) return unauthorized;
    const session = fake.checkoutSessions.get(req.path.split('/').pop() ?? '');
    return session ? { body: publicView(session) } : missing('checkout.session', req.path);
  });

  server.on('GET', '/v1/subscriptions/:id', (req) => {
    if (!authorized(req.headers.authorization)) return unauthorized;
    const subId = req.path.split('/').pop() ?? '';
    const sub = fake.subscriptions.get(subId);
    const override = fake.onSubscriptionRead?.(subId, sub);
    if (override) return override;
    return sub ? { body: sub } : missing('subscription', subId);
  });

  server.on('POST', '/v1/billing_portal/sessions', (req) => {
    if (!authorized(req.headers.authorization)) return unauthorized;
    const params = parseStripeForm(req.form ?? new URLSearchParams());
    const customer = text(params.customer);
    if (!fake.customers.has(customer)) return missing('customer', customer);
    const portalId = id('bps');
    const portal = { id: portalId, object: 'billing_portal.session', customer, return_url: params.return_url ?? null, url: `${server.url}/portal/${portalId}` };
    fake.portalSessions.set(portalId, portal);
    return { body: portal };
  });

  // The hosted pages a browser sees.
  server.on('GET', '/pay/:id', (req) => {
    const session = fake.checkoutSessions.get(req.path.split('/').pop() ?? '');
    if (!session || session.status !== 'open') return { status: 404, body: '<!doctype html><p>This checkout is over.</p>', headers: { 'content-type': 'text/html' } };
    return {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><title>Checkout (fake Stripe)</title><h1>Subscribe: $99.00 per month</h1>
        <form method="post"><button id="pay" type="submit">Subscribe</button></form>`,
    };
  });

  server.on('POST', '/pay/:id', async (req) => {
    const sessionId = req.path.split('/').pop() ?? '';
    const { session, events } = fake.completeCheckout(sessionId);
    for (const event of events) {
      const res = await fake.deliver(event);
      if (!res.ok) throw new Error(`webhook ${event.type} answered ${res.status}: ${await res.text()}`);
    }
    return { status: 303, headers: { location: String(session.success_url) } };
  });

  server.on('GET', '/portal/:id', (req) => {
    const portal = fake.portalSessions.get(req.path.split('/').pop() ?? '');
    if (!portal) return { status: 404, body: 'no such portal session' };
    return { headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><h1>Billing portal for ${String(portal.customer)}</h1>` };
  });

  return fake;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A session as the API shows it: without the fake's own bookkeeping fields. */
function publicView(session: Obj): Obj {
  return Object.fromEntries(Object.entries(session).filter(([k]) => !k.startsWith('_')));
}
