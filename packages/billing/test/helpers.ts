import { withService, type Database } from '@brain/db';
import { createLogger } from '@brain/observability';
import { Signer } from '@brain/accounts';
import type { FakeStripe } from '@brain/testkit';
import { createBillingLinks, createBillingService, createStripeGateway, type BillingService, type EntitlementPolicy } from '../src/index.ts';

export const logger = createLogger({ level: 'silent' });
export const PUBLIC_URL = 'https://brain.example.com';
export const PRICE_ID = 'price_test_monthly99';
export const WEBHOOK_SECRET = 'whsec_test_secret';
export const links = createBillingLinks(PUBLIC_URL, new Signer('b'.repeat(40)));

export function policy(overrides: Partial<EntitlementPolicy> = {}): EntitlementPolicy {
  return { billingEnabled: true, freeSaves: 2, freeAsks: 3, pastDueGraceDays: 7, checkoutUrl: (ws) => links.checkout(ws), ...overrides };
}

export function billingFor(db: Database, stripe: FakeStripe, overrides: Partial<EntitlementPolicy> = {}): BillingService {
  return createBillingService({
    db,
    logger,
    gateway: createStripeGateway({ secretKey: 'sk_test_fake', webhookSecret: WEBHOOK_SECRET, apiBase: stripe.url, maxNetworkRetries: 0, timeoutMs: 5000 }),
    priceId: PRICE_ID,
    links,
    policy: policy(overrides),
  });
}

let seq = 0;
/** A claimed workspace, as after install + claim. */
export async function claimedWorkspace(db: Database, email = 'owner@example.com'): Promise<string> {
  seq += 1;
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string }>(
      `insert into workspaces (slug, name, guild_id, claim_email, claimed_at)
       values ('b-' || $1 || '-' || substr(md5(random()::text), 1, 8), 'Billing ' || $1, null, $2, now()) returning id::text`,
      [String(seq), email],
    ),
  );
  return (row as { id: string }).id;
}

export interface WorkspacePlan extends Record<string, unknown> {
  plan_status: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  plan_period_end: Date | null;
  past_due_since: Date | null;
  plan_cancel_at_period_end: boolean;
  plan_synced_at: Date | null;
}

export async function planOf(db: Database, workspaceId: string): Promise<WorkspacePlan> {
  const [row] = await withService(db, (tx) =>
    tx.query<WorkspacePlan>(
      `select plan_status, stripe_customer_id, stripe_subscription_id, plan_period_end, past_due_since, plan_cancel_at_period_end, plan_synced_at
       from workspaces where id = $1`,
      [workspaceId],
    ),
  );
  if (!row) throw new Error(`no workspace ${workspaceId}`);
  return row;
}

/** Starts a checkout through the service and pays it in the fake, without delivering events. */
export async function paidCheckout(billing: BillingService, stripe: FakeStripe, workspaceId: string) {
  const { url } = await billing.startCheckout(workspaceId);
  const sessionId = url.split('/').pop() ?? '';
  return stripe.completeCheckout(sessionId);
}

export async function webhook(billing: BillingService, stripe: FakeStripe, event: Parameters<FakeStripe['sign']>[0], timestamp?: number) {
  const signed = stripe.sign(event, timestamp !== undefined ? { timestamp } : {});
  return billing.handleWebhook(Buffer.from(signed.body), signed.headers['stripe-signature']);
}
