export type MeteredAction = 'save' | 'ask';

export interface EntitlementPolicy {
  /** Off (no Stripe configured, e.g. a self-hosted try-out): everything is allowed and only counted. */
  billingEnabled: boolean;
  freeSaves: number;
  freeAsks: number;
  /** How long a past_due plan keeps working after its first failed payment. */
  pastDueGraceDays: number;
  /** The signed checkout page for a workspace (BillingLinks.checkout). */
  checkoutUrl(workspaceId: string): string;
}

export type Entitlement =
  | {
      allowed: true;
      /** plan: active or trialing; grace: past_due within the grace period; free: within the allowance. */
      basis: 'plan' | 'grace' | 'free' | 'unmetered';
      /** Free uses left after this one (free basis only). */
      remainingFree: number | null;
      /** Something the person should know although it worked (a failed payment, the allowance running out). */
      notice?: string | undefined;
    }
  | {
      allowed: false;
      code: 'FREE_ALLOWANCE_USED' | 'PAYMENT_OVERDUE' | 'WORKSPACE_NOT_FOUND';
      /** Ready to show in Discord as it is. */
      message: string;
      checkoutUrl: string | null;
    };

export function freeLimit(policy: EntitlementPolicy, action: MeteredAction): number {
  return action === 'save' ? policy.freeSaves : policy.freeAsks;
}

export const ACTION_NOUNS: Record<MeteredAction, { plural: string; command: string }> = {
  save: { plural: 'saves', command: '/save' },
  ask: { plural: 'questions', command: '/ask' },
};
