import { recordUsage } from '@brain/billing';
import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { EntitlementCheck } from '@brain/discord';
import type { OnboardingDeps } from '@brain/web';

/** /save and /ask in a real server go through billing: decided and counted in one statement. */
export function buildEntitlementCheck(config: BrainConfig, db: Database, onboarding: OnboardingDeps): EntitlementCheck {
  const policy = { billingEnabled: onboarding.billing.enabled, ...config.entitlements, checkoutUrl: (ws: string) => onboarding.billing.links.checkout(ws) };
  return async (workspaceId, action) => {
    const entitlement = await recordUsage(db, workspaceId, action, policy);
    return entitlement.allowed ? { allowed: true } : { allowed: false, message: entitlement.message };
  };
}
