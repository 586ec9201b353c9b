import type { IncomingMessage } from 'node:http';
import { isAppError } from '@brain/errors';
import { resolveAndCheck, systemResolver, type Resolver } from './address-guard.ts';
import { parseAllowList } from './allow-list.ts';
import { acceptContentType, parseContentType, settleContentType, type DocumentMimeType } from './content-type.ts';
import { defaultDialer, type DialTarget, type Dialer } from './dial.ts';
import {
  abortedError,
  connectionError,
  fetchError,
  httpStatusError,
  invalidUrl,
  timeoutError,
} from './fetch-errors.ts';
import { exchange } from './http-exchange.ts';
import { readBody } from './read-body.ts';
import { checkUrl, type CheckedUrl } from './url-policy.ts';

export const FETCH_DEFAULTS = {
  /** Measured after Content-Encoding is undone. */
  maxBytes: 20 * 1024 * 1024,
  /** For the whole fetch: DNS, every redirect hop, headers and body. */
  timeoutMs: 20_000,
  maxRedirects: 5,
  userAgent: 'CompanyBrainBot/1.0 (saves pages a Discord community asked for)',
} as const;

export interface SafeFetchOptions {
  /** Host names, IP addresses or CIDR blocks that may be private (config `allowPrivateHosts`). */
  allowPrivateHosts: readonly string[];
  /** DNS. Default: the system resolver (getaddrinfo), every address of every family. */
  resolver?: Resolver;
  /** Opens connections to checked addresses. Default: `defaultDialer`. Tests route it to loopback. */
  dialer?: Dialer;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Conditional refresh: the ETag stored from the last fetch. */
  ifNoneMatch?: string;
  /** Conditional refresh: the Last-Modified stored from the last fetch. */
  ifModifiedSince?: string;
  userAgent?: string;
  /** Cancels the fetch (e.g. worker shutdown); rejects with FETCH_ABORTED. */
  signal?: AbortSignal;
  /** Extra trusted CAs, for self-hosted sites behind an internal certificate authority. */
  ca?: string | Buffer | readonly (string | Buffer)[];
}

interface FetchedCommon {
  /** The URL after redirects: cite this one. */
  url: string;
  status: number;
  etag?: string;
  lastModified?: string;
}

export interface FetchedBody extends FetchedCommon {
  notModified: false;
  contentType: DocumentMimeType;
  /** From the Content-Type header, lower case; absent when the server did not say. */
  charset?: string;
  body: Buffer;
}

export interface NotModified extends FetchedCommon {
  notModified: true;
  status: 304;
}

export type FetchedDocument = FetchedBody | NotModified;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches a user-supplied URL without letting it reach anything private. See the package index
 * for the guarantees; every failure is an AppError with a FETCH_* code.
 */
export async function safeFetch(input: string, options: SafeFetchOptions): Promise<FetchedDocument> {
  const allowList = parseAllowList(options.allowPrivateHosts);
  const resolver = options.resolver ?? systemResolver;
  const dial = options.dialer ?? defaultDialer;
  const maxBytes = options.maxBytes ?? FETCH_DEFAULTS.maxBytes;
  const timeoutMs = options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
  const headers = requestHeaders(options);
  const conditional = options.ifNoneMatch !== undefined || options.ifModifiedSince !== undefined;

  let current: CheckedUrl = checkUrl(input);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`deadline of ${timeoutMs} ms`)), timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;

  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await resolveAndCheck(current, resolver, allowList, signal);
      const target: DialTarget = { hostname: current.hostname, addresses, port: current.port, tls: current.tls, ca: options.ca };
      const response = await exchange({ url: current.url, target, headers, dial, signal });
      const status = response.statusCode ?? 0;
      const location = response.headers.location;

      if (REDIRECTS.has(status) && location) {
        response.destroy();
        if (redirects >= maxRedirects) throw tooManyRedirects(maxRedirects, current.url.href);
        current = followRedirect(current, location);
        continue;
      }
      const common: FetchedCommon = {
        url: current.url.href,
        status,
        ...optionalHeader('etag', response.headers.etag),
        ...optionalHeader('lastModified', response.headers['last-modified']),
      };
      if (status === 304 && conditional) {
        response.destroy();
        return { ...common, notModified: true, status: 304 };
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw httpStatusError(current.url.href, status, header(response, 'retry-after'));
      }
      return { ...common, notModified: false, ...(await readDocument(response, current.url.href, maxBytes, signal)) };
    }
  } catch (error) {
    if (deadline.signal.aborted) throw timeoutError(timeoutMs, current.url.href);
    if (options.signal?.aborted) throw abortedError(current.url.href, error);
    if (isAppError(error)) throw error;
    throw connectionError(current.url.href, error);
  } finally {
    clearTimeout(timer);
  }
}

async function readDocument(response: IncomingMessage, url: string, maxBytes: number, signal: AbortSignal) {
  const { mime, charset } = parseContentType(header(response, 'content-type'));
  let declared: DocumentMimeType | 'sniff';
  try {
    declared = acceptContentType(mime, url);
  } catch (error) {
    response.destroy();
    throw error;
  }
  // The request's own abort handling ends with the headers; the body needs its own.
  const onAbort = () => response.destroy(new Error('aborted'));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const body = await readBody(response, url, maxBytes);
    const contentType = settleContentType(declared, body, url, mime);
    return { contentType, body, ...(charset ? { charset } : {}) };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Every hop goes through the same URL checks as the first, then the same address checks. */
function followRedirect(from: CheckedUrl, location: string): CheckedUrl {
  let next: CheckedUrl;
  try {
    next = checkUrl(new URL(location, from.url));
  } catch (error) {
    if (isAppError(error, 'FETCH_INVALID_URL')) {
      throw invalidUrl(`it redirects to a link that is refused: ${String(error.details?.reason)}`, { location });
    }
    throw error;
  }
  if (from.tls && !next.tls) {
    throw fetchError('FETCH_INSECURE_REDIRECT', {
      message: `${from.url.href} redirects from https to ${next.url.href}`,
      userMessage: 'That link redirects from a secure (https) page to an insecure (http) one.',
      nextStep: 'If you trust the site, save the http:// address directly.',
      httpStatus: 400,
      details: { from: from.url.href, to: next.url.href },
    });
  }
  return next;
}

function tooManyRedirects(maxRedirects: number, url: string) {
  return fetchError('FETCH_TOO_MANY_REDIRECTS', {
    message: `More than ${maxRedirects} redirects, last at ${url}`,
    userMessage: `That link redirects more than ${maxRedirects} times.`,
    nextStep: 'Open it in a browser and save the address it finally lands on.',
    httpStatus: 400,
    details: { maxRedirects, url },
  });
}

function requestHeaders(options: SafeFetchOptions): Record<string, string> {
  return {
    'user-agent': options.userAgent ?? FETCH_DEFAULTS.userAgent,
    accept: 'text/html,application/xhtml+xml,application/pdf;q=0.9,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.1',
    'accept-encoding': 'gzip, deflate, br',
    ...(options.ifNoneMatch !== undefined ? { 'if-none-match': options.ifNoneMatch } : {}),
    ...(options.ifModifiedSince !== undefined ? { 'if-modified-since': options.ifModifiedSince } : {}),
  };
}

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function optionalHeader<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
