import { AppError } from '@brain/errors';

/** Every code safeFetch can throw. Stable: the job queue stores them as failure reasons. */
export type FetchErrorCode =
  | 'FETCH_INVALID_URL'
  | 'FETCH_BLOCKED_ADDRESS'
  | 'FETCH_BLOCKED_PORT'
  | 'FETCH_HOST_NOT_FOUND'
  | 'FETCH_TOO_LARGE'
  | 'FETCH_TIMEOUT'
  | 'FETCH_ABORTED'
  | 'FETCH_TOO_MANY_REDIRECTS'
  | 'FETCH_INSECURE_REDIRECT'
  | 'FETCH_UNSUPPORTED_TYPE'
  | 'FETCH_HTTP_STATUS'
  | 'FETCH_BAD_RESPONSE'
  | 'FETCH_TLS'
  | 'FETCH_NETWORK';

interface FetchErrorInit {
  message: string;
  userMessage: string;
  nextStep: string;
  httpStatus: number;
  retryable?: boolean;
  details?: Record<string, unknown>;
  cause?: unknown;
}

export function fetchError(code: FetchErrorCode, init: FetchErrorInit): AppError {
  return new AppError({ code, retryable: false, ...init });
}

export const PRIVATE_HOSTS_HINT =
  'Save a link to a public website. If you run Brain yourself and mean to save pages from your own network, add that host to BRAIN_ALLOW_PRIVATE_HOSTS.';

export function invalidUrl(reason: string, details?: Record<string, unknown>): AppError {
  return fetchError('FETCH_INVALID_URL', {
    message: `Refused URL: ${reason}`,
    userMessage: `That link can't be saved: ${reason}.`,
    nextStep: 'Send a full http:// or https:// link to a web page, PDF or text file.',
    httpStatus: 400,
    details: { reason, ...details },
  });
}

export function blockedAddress(host: string, address: string, why: string): AppError {
  const shown = host === address ? host : `${host} (${address})`;
  return fetchError('FETCH_BLOCKED_ADDRESS', {
    message: `Blocked fetch of ${shown}: ${why}`,
    userMessage: `The address ${shown} is not allowed: it is ${why}.`,
    nextStep: PRIVATE_HOSTS_HINT,
    httpStatus: 403,
    details: { host, address, reason: why },
  });
}

export function timeoutError(timeoutMs: number, url: string): AppError {
  return fetchError('FETCH_TIMEOUT', {
    message: `Fetching ${url} took longer than ${timeoutMs} ms in total`,
    userMessage: `The site took longer than ${Math.round(timeoutMs / 1000)} seconds to send the page.`,
    nextStep: 'Try again later; if the site is always slow, save the text or the file instead.',
    httpStatus: 504,
    retryable: true,
    details: { timeoutMs, url },
  });
}

export function abortedError(url: string, cause: unknown): AppError {
  return fetchError('FETCH_ABORTED', {
    message: `Fetching ${url} was cancelled`,
    userMessage: 'The download was cancelled before it finished.',
    nextStep: 'It will be tried again; nothing to do.',
    httpStatus: 503,
    retryable: true,
    cause,
  });
}

export function tooLarge(limitBytes: number, details: Record<string, unknown>): AppError {
  const mb = Math.round(limitBytes / (1024 * 1024));
  return fetchError('FETCH_TOO_LARGE', {
    message: `Response exceeds ${limitBytes} bytes after decompression`,
    userMessage: `That document is larger than ${mb} MB.`,
    nextStep: 'Save a smaller page, or split the document and save the parts.',
    httpStatus: 413,
    details: { limitBytes, ...details },
  });
}

export function networkError(url: string, cause: unknown): AppError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return fetchError('FETCH_NETWORK', {
    message: `Network error fetching ${url}: ${code ?? String(cause)}`,
    userMessage: `Couldn't download ${new URL(url).host}: the connection failed${code ? ` (${code})` : ''}.`,
    nextStep: 'Check that the site is up; it will be tried again.',
    httpStatus: 502,
    retryable: true,
    details: { url, errno: code },
    cause,
  });
}

const TLS_CODE = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/**
 * A failed connection. Resets, refusals and DNS hiccups are worth retrying; a certificate the
 * site got wrong will be wrong next time too, and a malformed HTTP response is the site's bug.
 */
export function connectionError(url: string, cause: unknown): AppError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (TLS_CODE.test(code)) {
    return fetchError('FETCH_TLS', {
      message: `TLS failure fetching ${url}: ${code}`,
      userMessage: `${new URL(url).host} has an invalid HTTPS certificate (${code}).`,
      nextStep: 'Ask the site owner to fix its certificate, or save the page text instead.',
      httpStatus: 502,
      details: { url, errno: code },
      cause,
    });
  }
  if (code.startsWith('HPE_')) return badResponse(url, `invalid HTTP (${code})`, cause);
  return networkError(url, cause);
}

export function badResponse(url: string, reason: string, cause?: unknown): AppError {
  return fetchError('FETCH_BAD_RESPONSE', {
    message: `Malformed response from ${url}: ${reason}`,
    userMessage: `The site sent a response that could not be read (${reason}).`,
    nextStep: 'Save the page text or the file directly instead.',
    httpStatus: 502,
    details: { url, reason },
    cause,
  });
}

/** 408, 425, 429 and 5xx are worth retrying; every other refusal will be the same next time. */
export function httpStatusError(url: string, status: number, retryAfter: string | undefined): AppError {
  const retryable = status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599);
  const hint =
    status === 401 || status === 403
      ? 'The page needs a login or blocks bots: save its text or the file instead.'
      : status === 404 || status === 410
        ? 'Check the link: the page does not exist (any more).'
        : retryable
          ? 'The site is busy or failing; it will be tried again.'
          : 'Check the link, or save the text or the file instead.';
  return fetchError('FETCH_HTTP_STATUS', {
    message: `HTTP ${status} from ${url}`,
    userMessage: `The site answered with HTTP ${status}.`,
    nextStep: hint,
    httpStatus: 502,
    retryable,
    details: { url, status, retryAfter },
  });
}
