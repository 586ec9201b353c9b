import type {} from './error-codes.ts';
/**
 * @brain/fetch — downloads a user-supplied URL without letting it reach anything private.
 *
 * Guarantees of `safeFetch`:
 * - only http(s) URLs without credentials, on any port but the Fetch Standard's bad ports;
 * - every address the host resolves to is classified (address-policy.ts) and one non-public
 *   answer refuses the host, unless the operator allow-listed it (BRAIN_ALLOW_PRIVATE_HOSTS);
 * - the socket connects only to addresses that were checked (a pinned lookup), so DNS
 *   rebinding between the check and the connect cannot redirect it; no agent, so no proxy;
 * - redirects are followed by hand, at most `maxRedirects` (5), each hop checked again, and
 *   never from https down to http;
 * - one deadline (20 s) for the whole fetch, a size cap (20 MB) counted after decompression,
 *   and a content-type allow-list (HTML, XHTML, PDF, plain text, markdown) decided from the
 *   headers before the body is downloaded;
 * - every failure is an AppError with a FETCH_* code; `retryable` is true only for timeouts,
 *   resets, 408/425/429 and 5xx.
 *
 * `checkFetchable` runs the same checks without connecting, to refuse a link at save time.
 */
export { safeFetch, FETCH_DEFAULTS, type SafeFetchOptions, type FetchedDocument, type FetchedBody, type NotModified } from './safe-fetch.ts';
export { checkFetchable, type CheckFetchableOptions } from './check-fetchable.ts';
export { type FetchErrorCode } from './fetch-errors.ts';
export { type DocumentMimeType } from './content-type.ts';
export { classifyAddress, type AddressCategory, type AddressClassification } from './address-policy.ts';
export { parseAllowList, type AllowList } from './allow-list.ts';
export { systemResolver, type Resolver, type ResolvedAddress } from './address-guard.ts';
export { defaultDialer, type Dialer, type DialTarget } from './dial.ts';
