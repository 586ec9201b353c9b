import { resolveAndCheck, systemResolver, type Resolver } from './address-guard.ts';
import { parseAllowList } from './allow-list.ts';
import { checkUrl } from './url-policy.ts';

export interface CheckFetchableOptions {
  allowPrivateHosts: readonly string[];
  resolver?: Resolver;
  /** How long DNS may take; a slow answer is left to the fetch itself. Default 5 s. */
  timeoutMs?: number;
}

/**
 * The checks safeFetch makes before it connects — URL, port, every resolved address — without
 * connecting, so `/save` and `brain save` can refuse a link at once, before anything is written
 * or queued. It throws only refusals that will not change (FETCH_INVALID_URL, FETCH_BLOCKED_PORT,
 * FETCH_BLOCKED_ADDRESS, FETCH_HOST_NOT_FOUND); a DNS hiccup passes, for the fetch to retry.
 *
 * Not a substitute for safeFetch: DNS can answer differently by the time the worker runs, and
 * safeFetch checks everything again, on every redirect.
 */
export async function checkFetchable(url: string, options: CheckFetchableOptions): Promise<{ url: string }> {
  const checked = checkUrl(url);
  const deadline = AbortSignal.timeout(options.timeoutMs ?? 5000);
  try {
    await resolveAndCheck(checked, options.resolver ?? systemResolver, parseAllowList(options.allowPrivateHosts), deadline);
  } catch (error) {
    if (deadline.aborted || (error as { retryable?: boolean }).retryable === true) return { url: checked.url.href };
    throw error;
  }
  return { url: checked.url.href };
}
