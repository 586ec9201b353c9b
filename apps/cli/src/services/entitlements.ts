import { recordUsage } from '@brain/billing';
import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { EntitlementCheck } from '@brain/discord';
import type { OnboardingDeps } from '@brain/web';

/** /save and /ask in a real server, and MCP's save_source and search_brain, go through billing: decided and counted in one statement. */
export function buildEntitlementCheck(config: BrainConfig, db: Database, onboarding: OnboardingDeps): EntitlementCheck {
  const policy = { billingEnabled: onboarding.billing.enabled, ...config.entitlements, checkoutUrl: (ws: string) => onboarding.billing.links.checkout(ws) };
  return async (workspaceId, action) => {
    const entitlement = await recordUsage(db, workspaceId, action, policy);
    return entitlement.allowed ? { allowed: true } : { allowed: false, message: entitlement.message, code: entitlement.code };
  };
}

/** The CLI's local workspace is the operator's own (the playground's server, `brain mcp` without a token): never metered. */
export function exceptLocalWorkspace(check: EntitlementCheck, localWorkspaceId: string): EntitlementCheck {
  return (workspaceId, action) => (workspaceId === localWorkspaceId ? Promise.resolve({ allowed: true }) : check(workspaceId, action));
}
