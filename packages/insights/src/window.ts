/** The periods the dashboard offers; anything else falls back to the default. */
export const WINDOW_DAYS = [7, 30, 90] as const;
export type WindowDays = (typeof WINDOW_DAYS)[number];
export const DEFAULT_WINDOW_DAYS: WindowDays = 30;

export function parseWindowDays(value: unknown): WindowDays {
  const n = typeof value === 'string' ? Number(value) : value;
  return (WINDOW_DAYS as readonly unknown[]).includes(n) ? (n as WindowDays) : DEFAULT_WINDOW_DAYS;
}

/**
 * What "unanswered" means everywhere on the dashboard: an ask that returned no grounded answer
 * (nothing passed the similarity floor, or the answer cited nothing it was given).
 */
export const UNANSWERED = 'not q.grounded';

/**
 * The first UTC day of a window of `$n` days ending today, for the daily rollups
 * (query_day_stats, query_source_day_stats): "the last 30 days" is today and the 29 before it.
 */
export const firstDay = (param: string): string => `((now() at time zone 'UTC')::date - (${param}::int - 1))`;
