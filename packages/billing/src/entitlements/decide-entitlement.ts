import type { PlanStatus } from '../plan-status.ts';
import { ACTION_NOUNS, freeLimit, type Entitlement, type EntitlementPolicy, type MeteredAction } from './policy.ts';

export interface UsageState {
  workspaceId: string;
  planStatus: PlanStatus;
  inGrace: boolean;
  graceEnds: Date | null;
  /** Uses counted so far, including this one when deciding after recording it. */
  used: number;
}

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : 'soon');

/**
 * The decision, from facts already read. `recorded` says whether `used` already includes the
 * current use (after recordUsage) or not (a check before doing anything).
 */
export function decideEntitlement(state: UsageState, action: MeteredAction, policy: EntitlementPolicy, recorded: boolean): Entitlement {
  const { plural, command } = ACTION_NOUNS[action];
  if (!policy.billingEnabled) return { allowed: true, basis: 'unmetered', remainingFree: null };
  if (state.planStatus === 'active' || state.planStatus === 'trialing') return { allowed: true, basis: 'plan', remainingFree: null };
  if (state.planStatus === 'past_due' && state.inGrace) {
    return {
      allowed: true,
      basis: 'grace',
      remainingFree: null,
      notice: `The last payment for this server's plan failed. Everything keeps working until ${day(state.graceEnds)}; an admin can update the card with /billing.`,
    };
  }

  const limit = freeLimit(policy, action);
  const usedBefore = recorded ? state.used - 1 : state.used;
  const checkoutUrl = policy.checkoutUrl(state.workspaceId);
  if (usedBefore < limit) {
    const remaining = limit - usedBefore - 1;
    const low = remaining <= Math.max(1, Math.floor(limit / 5));
    return {
      allowed: true,
      basis: 'free',
      remainingFree: remaining,
      notice: low ? `${remaining} free ${plural} left on this server. Subscribe to keep going: ${checkoutUrl}` : undefined,
    };
  }
  if (state.planStatus === 'past_due') {
    return {
      allowed: false,
      code: 'PAYMENT_OVERDUE',
      message: `The payment for this server's plan failed and the grace period ended on ${day(state.graceEnds)}. An admin can update the card with /billing to use ${command} again.`,
      checkoutUrl: null,
    };
  }
  const lead =
    state.planStatus === 'canceled'
      ? `This server's plan has ended and its ${limit} free ${plural} are used.`
      : `This server has used its ${limit} free ${plural}.`;
  return {
    allowed: false,
    code: 'FREE_ALLOWANCE_USED',
    message: `${lead} Subscribe to keep using ${command}: ${checkoutUrl}`,
    checkoutUrl,
  };
}

export function workspaceNotFound(): Entitlement {
  return {
    allowed: false,
    code: 'WORKSPACE_NOT_FOUND',
    message: 'This server is not set up for Company Brain yet. An admin can add the bot again from the install link.',
    checkoutUrl: null,
  };
}
