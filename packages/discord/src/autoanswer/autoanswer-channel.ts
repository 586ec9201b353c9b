/** What a server does when nothing saved covers a new post: react to it, or say so in one short line. */
export type WhenUncovered = 'reaction' | 'line';

/** A channel with /autoanswer on (a row of autoanswer_channels). */
export interface AutoanswerChannel {
  channelId: string;
  channelName: string | null;
  whenUncovered: WhenUncovered;
  staffRoleId: string | null;
  /** At most this many auto-answers in any hour; past it each post gets a short line instead. */
  maxPerHour: number;
  enabledBy: string;
  enabledAt: Date;
}

/** The default allowance: a busy help forum's day, well above a normal hour, far below a raid. */
export const DEFAULT_MAX_PER_HOUR = 20;
export const MAX_PER_HOUR_LIMIT = 500;

export const AUTOANSWER_COLUMNS = 'channel_id, channel_name, when_uncovered, staff_role_id, max_per_hour, enabled_by, created_at';

export function autoanswerChannelOf(row: Record<string, unknown>): AutoanswerChannel {
  return {
    channelId: String(row.channel_id),
    channelName: (row.channel_name as string | null) ?? null,
    whenUncovered: row.when_uncovered === 'line' ? 'line' : 'reaction',
    staffRoleId: (row.staff_role_id as string | null) ?? null,
    maxPerHour: Number(row.max_per_hour ?? DEFAULT_MAX_PER_HOUR),
    enabledBy: String(row.enabled_by),
    enabledAt: new Date(row.created_at as string | Date),
  };
}
