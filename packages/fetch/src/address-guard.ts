import dns from 'node:dns';
import { classifyAddress, describeCategory, type AddressCategory } from './address-policy.ts';
import type { AllowList } from './allow-list.ts';
import { blockedAddress, fetchError, networkError } from './fetch-errors.ts';
import { parseIp } from './ip-address.ts';
import type { CheckedUrl } from './url-policy.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Turns a host name into addresses. Injectable so tests can answer with any address (a private
 * one, a rebinding sequence, several at once) without a DNS server.
 */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** getaddrinfo, as the rest of the system resolves names (/etc/hosts included), all families. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// Not destinations at all: no allow-list entry makes them one.
const NEVER_ALLOWED = new Set<AddressCategory>(['unspecified', 'multicast', 'broadcast', 'ipv4-mapped', 'invalid']);

const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * Resolves the URL's host and checks EVERY answer, before any connection exists. One bad answer
 * refuses the whole host: a name that resolves to both a public and a private address is a
 * rebinding setup, not a website. The addresses returned are the only ones the caller may dial.
 */
export async function resolveAndCheck(
  target: CheckedUrl,
  resolver: Resolver,
  allowList: AllowList,
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const { hostname } = target;
  const literal = parseIp(hostname);
  if (literal) {
    check(hostname, hostname, allowList);
    return [{ address: hostname, family: literal.family }];
  }

  // RFC 6761: *.localhost is loopback whatever a DNS server says.
  if ((hostname === 'localhost' || hostname.endsWith('.localhost')) && !allowList.allowsHost(hostname)) {
    throw blockedAddress(hostname, hostname, describeCategory('loopback'));
  }

  let answers: ResolvedAddress[];
  try {
    answers = await abortable(resolver(hostname), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && NOT_FOUND_CODES.has(code)) throw hostNotFound(hostname, code);
    throw networkError(target.url.href, error);
  }
  if (answers.length === 0) throw hostNotFound(hostname, 'no addresses');
  for (const answer of answers) check(hostname, answer.address, allowList);
  return answers.map((a) => ({ address: a.address, family: parseIp(a.address)?.family ?? a.family }));
}

function check(hostname: string, address: string, allowList: AllowList): void {
  const verdict = classifyAddress(address);
  if (verdict.public) return;
  const exempt = allowList.allowsHost(hostname) || allowList.allowsAddress(address);
  if (exempt && !NEVER_ALLOWED.has(verdict.category)) return;
  const why = verdict.embedded
    ? `${describeCategory(verdict.category)} wrapped in ${verdict.range ?? 'IPv6'}`
    : describeCategory(verdict.category);
  throw blockedAddress(hostname, address, why);
}

function hostNotFound(hostname: string, code: string) {
  return fetchError('FETCH_HOST_NOT_FOUND', {
    message: `DNS has no address for ${hostname} (${code})`,
    userMessage: `The site ${hostname} could not be found.`,
    nextStep: 'Check the link for typos.',
    httpStatus: 400,
    details: { host: hostname, code },
  });
}

/** A resolver cannot be cancelled (getaddrinfo runs to completion), but nobody has to wait for it. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
