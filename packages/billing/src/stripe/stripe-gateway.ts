import Stripe from 'stripe';
import { AppError } from '@brain/errors';
import type { BillingGateway, SubscriptionSnapshot } from './billing-gateway.ts';

export interface StripeGatewayOptions {
  secretKey: string;
  webhookSecret: string;
  /** STRIPE_API_BASE, e.g. http://127.0.0.1:12111 for a local fake; Stripe's own when unset. */
  apiBase?: string | undefined;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

/** Stripe's default: a signed event older than five minutes is refused (replay window). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** stripe-node only checks age; a timestamp this far in the future is refused too (a clock or a forger). */
export const WEBHOOK_FUTURE_SKEW_SECONDS = 300;

export function createStripeGateway(options: StripeGatewayOptions): BillingGateway {
  const stripe = new Stripe(options.secretKey, {
    ...hostOptions(options.apiBase),
    timeout: options.timeoutMs ?? 20_000,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    telemetry: false,
    appInfo: { name: 'company-brain' },
  });

  return {
    async createCheckoutSession(request) {
      const session = await call('create a Checkout Session', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            line_items: [{ price: request.priceId, quantity: 1 }],
            client_reference_id: request.workspaceId,
            metadata: { workspace_id: request.workspaceId },
            subscription_data: { metadata: { workspace_id: request.workspaceId } },
            ...(request.customerId ? { customer: request.customerId } : request.customerEmail ? { customer_email: request.customerEmail } : {}),
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
          },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      if (!session.url) throw unexpected('Stripe returned a Checkout Session without a URL.');
      return { id: session.id, url: session.url };
    },

    async createPortalSession(customerId, returnUrl) {
      const portal = await call('open the Customer Portal', () =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return { url: portal.url };
    },

    async retrieveSubscription(id) {
      try {
        return snapshot(await stripe.subscriptions.retrieve(id));
      } catch (error) {
        if (isStripeError(error) && error.type === 'StripeInvalidRequestError' && error.code === 'resource_missing') return undefined;
        throw toAppError(error, 'read a subscription');
      }
    },

    constructEvent(rawBody, signature) {
      if (typeof signature !== 'string' || signature.length === 0) {
        throw signatureError('The request has no single Stripe-Signature header.');
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        throw signatureError((error as Error).message, error);
      }
      const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
      if (signedAt > Date.now() / 1000 + WEBHOOK_FUTURE_SKEW_SECONDS) throw signatureError('Timestamp is in the future.');
      return event;
    },
  };
}

function snapshot(sub: Stripe.Subscription): SubscriptionSnapshot {
  const periodEnd = sub.items.data[0]?.current_period_end;
  return {
    id: sub.id,
    customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
    status: sub.status,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    currentPeriodEnd: typeof periodEnd === 'number' ? new Date(periodEnd * 1000) : null,
    workspaceId: sub.metadata.workspace_id,
  };
}

function hostOptions(apiBase: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toAppError(error, what);
  }
}

interface StripeErrorLike {
  type: string;
  code?: string;
  statusCode?: number;
  message: string;
}

function isStripeError(error: unknown): error is StripeErrorLike {
  const type = error instanceof Error ? (error as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type.startsWith('Stripe');
}

/** Transient (network, 5xx, 429, a bad key that an operator will fix) means "retry"; the rest does not. */
export function toAppError(error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  if (!isStripeError(error)) return unexpected(`Could not ${what}: ${(error as Error | undefined)?.message ?? String(error)}`, error);
  const transient =
    error.type === 'StripeConnectionError' ||
    error.type === 'StripeAPIError' ||
    error.type === 'StripeRateLimitError' ||
    error.type === 'StripeAuthenticationError' ||
    (error.statusCode ?? 0) >= 500;
  return new AppError({
    code: transient ? 'STRIPE_UNAVAILABLE' : 'STRIPE_REQUEST_FAILED',
    message: `Stripe refused to ${what}: ${error.type} ${error.code ?? ''} ${error.message}`.replace(/\s+/g, ' '),
    userMessage: transient ? 'Stripe is not answering right now.' : 'Stripe could not do that.',
    nextStep: transient ? 'Try again in a minute.' : 'Check the plan settings (STRIPE_PRICE_ID) or contact support.',
    httpStatus: transient ? 503 : 502,
    retryable: transient,
    details: { stripeType: error.type, stripeCode: error.code },
    cause: error,
  });
}

function signatureError(reason: string, cause?: unknown): AppError {
  return new AppError({
    code: 'WEBHOOK_SIGNATURE_INVALID',
    message: `Stripe webhook signature refused: ${reason}`,
    userMessage: 'The webhook signature is not valid.',
    nextStep: 'Check that STRIPE_WEBHOOK_SECRET is the signing secret of this endpoint, and that nothing rewrites the body.',
    httpStatus: 400,
    ...(cause ? { cause } : {}),
  });
}

function unexpected(message: string, cause?: unknown): AppError {
  return new AppError({ code: 'STRIPE_UNEXPECTED', message, httpStatus: 502, retryable: true, ...(cause ? { cause } : {}) });
}
