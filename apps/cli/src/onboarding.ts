import { createAccounts, DevOutboxMailer, Signer, SupabaseMailer, type MagicLinkMailer } from '@brain/accounts';
import { createBillingLinks, createBillingService, createStripeGateway, type BillingService } from '@brain/billing';
import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { Logger } from '@brain/observability';
import type { OnboardingDeps } from '@brain/web';

export interface OnboardingOptions {
  config: BrainConfig;
  db: Database;
  logger: Logger;
  cookieSecret: string;
  /** Where the dev outbox prints links (the console). */
  print: (line: string) => void;
}

/**
 * Install, claim and billing, wired from config: Supabase Auth for magic links when
 * SUPABASE_URL is set (the dev outbox otherwise), Stripe when STRIPE_SECRET_KEY is set (billing
 * off otherwise: everything allowed, only counted).
 */
export function buildOnboarding(options: OnboardingOptions): OnboardingDeps {
  const { config, db, logger } = options;
  const signer = new Signer(options.cookieSecret);
  const devOutbox = config.supabase.url ? undefined : new DevOutboxMailer({ print: options.print });
  const mailer: MagicLinkMailer =
    config.supabase.url && config.supabase.serviceRoleKey
      ? new SupabaseMailer({ url: config.supabase.url, serviceRoleKey: config.supabase.serviceRoleKey })
      : (devOutbox ?? new DevOutboxMailer({ print: options.print }));
  const accounts = createAccounts({ db, mailer, logger, publicUrl: config.publicUrl });

  return { accounts, billing: buildBillingService(config, db, logger, signer), signer, devOutbox };
}

/**
 * Billing (Stripe when STRIPE_SECRET_KEY is set), links signed with `signer`: onboarding's, and
 * the answering thread's own for /ask's entitlement check, so both meter on one policy.
 */
export function buildBillingService(config: BrainConfig, db: Database, logger: Logger, signer: Signer): BillingService {
  const links = createBillingLinks(config.publicUrl, signer);
  const { secretKey, webhookSecret, priceId, apiBase } = config.stripe;
  const gateway = secretKey && webhookSecret ? createStripeGateway({ secretKey, webhookSecret, apiBase }) : undefined;
  return createBillingService({
    db,
    logger,
    gateway,
    priceId,
    links,
    policy: { billingEnabled: gateway !== undefined, ...config.entitlements, checkoutUrl: (workspaceId) => links.checkout(workspaceId) },
  });
}
