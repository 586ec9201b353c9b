import type { BillingService } from '@brain/billing';
import type { EntitlementCheck } from '@brain/discord';

/**
 * /save and /ask in a real server, and MCP's save_source and search_brain, go through billing:
 * decided and counted in one statement, on the billing service's own policy (the one the
 * dashboard's plan and checkout also read).
 */
export function buildEntitlementCheck(onboarding: { billing: Pick<BillingService, 'recordUsage'> }): EntitlementCheck {
  return async (workspaceId, action) => {
    const entitlement = await onboarding.billing.recordUsage(workspaceId, action);
    return entitlement.allowed ? { allowed: true } : { allowed: false, message: entitlement.message, code: entitlement.code };
  };
}

/** The CLI's local workspace is the operator's own (the playground's server, `brain mcp` without a token): never metered. */
export function exceptLocalWorkspace(check: EntitlementCheck, localWorkspaceId: string): EntitlementCheck {
  return (workspaceId, action) => (workspaceId === localWorkspaceId ? Promise.resolve({ allowed: true }) : check(workspaceId, action));
}
