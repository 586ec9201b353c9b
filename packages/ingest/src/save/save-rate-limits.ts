import { AppError } from '@brain/errors';

export interface RateWindow {
  /** Saves allowed per window. */
  limit: number;
  windowSeconds: number;
}

/** A shared sliding-window counter (@brain/accounts' RateLimiter satisfies it). */
export interface RateCounter {
  hit(bucket: string, window: RateWindow): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
}

/**
 * How many saves one member, and one workspace, may make: a member of one server must not be able
 * to fill the shared queue. Absent for the operator's own CLI.
 */
export interface SaveRateLimits {
  counter: RateCounter;
  perMember: RateWindow;
  perWorkspace: RateWindow;
}

export const DEFAULT_SAVE_RATE_LIMITS = {
  perMember: { limit: 20, windowSeconds: 10 * 60 },
  perWorkspace: { limit: 200, windowSeconds: 60 * 60 },
} as const satisfies Record<string, RateWindow>;

/**
 * Counts one save against the member's window, then the workspace's. The member is checked first,
 * so one member being refused does not use up the rest of the server's saves. A limit of 0 is off.
 */
export async function enforceSaveRateLimits(limits: SaveRateLimits, workspaceId: string, savedBy: string): Promise<void> {
  if (limits.perMember.limit > 0) {
    const member = await limits.counter.hit(`save:member:${workspaceId}:${savedBy}`, limits.perMember);
    if (!member.allowed) throw saveRateLimited('member', limits.perMember, member.retryAfterSeconds);
  }
  if (limits.perWorkspace.limit > 0) {
    const workspace = await limits.counter.hit(`save:workspace:${workspaceId}`, limits.perWorkspace);
    if (!workspace.allowed) throw saveRateLimited('workspace', limits.perWorkspace, workspace.retryAfterSeconds);
  }
}

function saveRateLimited(scope: 'member' | 'workspace', window: RateWindow, retryAfterSeconds: number): AppError {
  const span = describeSeconds(window.windowSeconds);
  return new AppError({
    code: scope === 'member' ? 'SAVE_RATE_LIMITED_MEMBER' : 'SAVE_RATE_LIMITED_WORKSPACE',
    message: `Save refused: ${scope} limit of ${window.limit} per ${window.windowSeconds}s reached.`,
    userMessage:
      scope === 'member'
        ? `You have saved ${plural(window.limit, 'source')} in the last ${span}, the most one member may.`
        : `This server has saved ${plural(window.limit, 'source')} in the last ${span}, the most it may.`,
    nextStep: `Try again in ${describeSeconds(retryAfterSeconds)}; nothing was saved this time.`,
    httpStatus: 429,
    details: { scope, retryAfterSeconds },
  });
}

/** "45 seconds", "7 minutes", "1 hour", "1 hour 5 minutes": a wait a person can read. */
export function describeSeconds(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return plural(s, 'second');
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? plural(hours, 'hour') : `${plural(hours, 'hour')} ${plural(rest, 'minute')}`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
