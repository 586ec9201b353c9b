import { isUuid, withService, type Database } from '@brain/db';
import { AppError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import { checkEntitlement } from './entitlements/check-entitlement.ts';
import type { Entitlement, EntitlementPolicy, MeteredAction } from './entitlements/policy.ts';
import { recordUsage } from './entitlements/record-usage.ts';
import type { BillingLinks } from './links.ts';
import { readPlanSummary, type PlanSummary } from './plan-summary.ts';
import { processStripeWebhook, type WebhookResult } from './process-stripe-webhook.ts';
import type { BillingGateway } from './stripe/billing-gateway.ts';

export interface BillingServiceOptions {
  db: Database;
  logger: Logger;
  /** Absent when Stripe is not configured: checkout and the portal then say so. */
  gateway: BillingGateway | undefined;
  priceId: string | undefined;
  links: BillingLinks;
  policy: EntitlementPolicy;
  now?: () => number;
}

/** What the web routes, /billing (Discord) and the dashboard call. */
export interface BillingService {
  readonly enabled: boolean;
  readonly links: BillingLinks;
  /** A Stripe Checkout URL for the workspace's plan; only once it is claimed, and not while a plan is live. */
  startCheckout(workspaceId: string): Promise<{ url: string }>;
  /** A Customer Portal URL (card, invoices, cancel) for a workspace that has a Stripe customer. */
  createPortalSession(workspaceId: string): Promise<{ url: string }>;
  handleWebhook(rawBody: Buffer, signature: string | string[] | undefined): Promise<WebhookResult>;
  checkEntitlement(workspaceId: string, action: MeteredAction): Promise<Entitlement>;
  recordUsage(workspaceId: string, action: MeteredAction): Promise<Entitlement>;
  plan(workspaceId: string): Promise<PlanSummary | undefined>;
}

const notConfigured = () =>
  new AppError({
    code: 'BILLING_NOT_CONFIGURED',
    message: 'Billing is not configured on this server (STRIPE_SECRET_KEY is unset).',
    userMessage: 'Billing is not set up on this Company Brain server.',
    nextStep: 'Set STRIPE_SECRET_KEY, STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET, then restart.',
    httpStatus: 503,
  });

const unknownWorkspace = () =>
  new AppError({
    code: 'WORKSPACE_NOT_FOUND',
    message: 'No such workspace.',
    userMessage: 'This server is not set up for Company Brain.',
    nextStep: 'Add the bot to the server again from the install link.',
    httpStatus: 404,
  });

export function createBillingService(options: BillingServiceOptions): BillingService {
  const { db, links, policy } = options;
  const logger = options.logger.child({ component: 'billing' });
  const now = options.now ?? Date.now;

  async function plan(workspaceId: string): Promise<PlanSummary | undefined> {
    if (!isUuid(workspaceId)) return undefined;
    return withService(db, (tx) => readPlanSummary(tx, workspaceId));
  }

  return {
    enabled: options.gateway !== undefined,
    links,
    plan,

    async startCheckout(workspaceId) {
      const gateway = options.gateway;
      if (!gateway || !options.priceId) throw notConfigured();
      const current = await plan(workspaceId);
      if (!current) throw unknownWorkspace();
      if (!current.claimEmail) {
        throw new AppError({
          code: 'WORKSPACE_NOT_CLAIMED',
          message: `Workspace ${workspaceId} has no owner yet.`,
          userMessage: 'This server has not been claimed yet.',
          nextStep: 'The person who added the bot claims it first, with the email link from the install page.',
          httpStatus: 409,
        });
      }
      if (current.planStatus === 'active' || current.planStatus === 'trialing' || current.planStatus === 'past_due') {
        throw new AppError({
          code: 'PLAN_ALREADY_ACTIVE',
          message: `Workspace ${workspaceId} already has a ${current.planStatus} plan.`,
          userMessage: 'This server already has a plan.',
          nextStep: 'Manage it (card, invoices, cancellation) with /billing in Discord.',
          httpStatus: 409,
        });
      }
      // Same workspace within ten minutes → Stripe replays the same session: a double click opens one checkout.
      const window = Math.floor(now() / 600_000);
      const session = await gateway.createCheckoutSession({
        workspaceId,
        priceId: options.priceId,
        customerId: current.stripeCustomerId ?? undefined,
        customerEmail: current.claimEmail,
        successUrl: links.success(workspaceId),
        cancelUrl: links.cancel(workspaceId),
        idempotencyKey: `checkout:${workspaceId}:${current.stripeCustomerId ?? 'new'}:${window}`,
      });
      logger.info({ workspaceId, sessionId: session.id }, 'checkout session created');
      return { url: session.url };
    },

    async createPortalSession(workspaceId) {
      const gateway = options.gateway;
      if (!gateway) throw notConfigured();
      const current = await plan(workspaceId);
      if (!current) throw unknownWorkspace();
      if (!current.stripeCustomerId) {
        throw new AppError({
          code: 'BILLING_NO_CUSTOMER',
          message: `Workspace ${workspaceId} has no Stripe customer yet.`,
          userMessage: 'This server has no subscription yet, so there is nothing to manage.',
          nextStep: `Subscribe here: ${links.checkout(workspaceId)}`,
          httpStatus: 409,
        });
      }
      return gateway.createPortalSession(current.stripeCustomerId, links.portalReturn(workspaceId));
    },

    async handleWebhook(rawBody, signature) {
      if (!options.gateway) {
        return { status: 503, body: { error: 'BILLING_NOT_CONFIGURED', message: notConfigured().toUserString() } };
      }
      return processStripeWebhook({ db, gateway: options.gateway, logger }, rawBody, signature);
    },

    checkEntitlement: (workspaceId, action) => checkEntitlement(db, workspaceId, action, policy),
    recordUsage: (workspaceId, action) => recordUsage(db, workspaceId, action, policy),
  };
}
