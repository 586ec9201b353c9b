import type { Signer } from '@brain/accounts';

/**
 * The billing pages' URLs, built from PUBLIC_URL and signed per workspace: a checkout link in a
 * Discord message works for that server only, and nobody can start one for a workspace id
 * they guessed.
 */
export interface BillingLinks {
  checkout(workspaceId: string): string;
  /** Stripe replaces {CHECKOUT_SESSION_ID}. */
  success(workspaceId: string): string;
  cancel(workspaceId: string): string;
  /** Where the Customer Portal sends the operator back to: the plan's status page. */
  portalReturn(workspaceId: string): string;
  /** The `sig` these links carry, for a form that posts to /billing/checkout. */
  signature(workspaceId: string): string;
  verify(workspaceId: unknown, signature: unknown): workspaceId is string;
}

const PURPOSE = 'billing-link';

export function createBillingLinks(publicUrl: string, signer: Signer): BillingLinks {
  const signature = (workspaceId: string) => signer.sign(PURPOSE, [workspaceId]);
  const link = (path: string, workspaceId: string, extra = '') =>
    `${publicUrl}${path}?workspace=${encodeURIComponent(workspaceId)}&sig=${signature(workspaceId)}${extra}`;
  return {
    signature,
    checkout: (workspaceId) => link('/billing/checkout', workspaceId),
    success: (workspaceId) => link('/billing/success', workspaceId, '&session_id={CHECKOUT_SESSION_ID}'),
    cancel: (workspaceId) => link('/billing/cancel', workspaceId),
    portalReturn: (workspaceId) => link('/billing/success', workspaceId),
    verify: (workspaceId, signature): workspaceId is string =>
      typeof workspaceId === 'string' && signer.verify(PURPOSE, [workspaceId], signature),
  };
}
