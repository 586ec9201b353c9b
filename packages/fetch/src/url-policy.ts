import { fetchError, invalidUrl } from './fetch-errors.ts';
import { unbracket } from './ip-address.ts';

export const MAX_URL_LENGTH = 8192;

/**
 * Ports: any port is accepted except the Fetch Standard's "bad ports" — the list every browser
 * refuses (SMTP, IRC, SSH, LDAP, NFS, SIP …). Restricting to 80/443 would break documentation
 * and self-hosted wikis on :8080, :8443 or :3000 for no gain: the address checks already keep
 * the fetcher off internal hosts, and the port only matters for public ones, where the real risk
 * is cross-protocol abuse of a mail or chat server, which this list stops just as browsers do.
 * https://fetch.spec.whatwg.org/#bad-port
 */
const BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109,
  110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531,
  532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060,
  5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export interface CheckedUrl {
  url: URL;
  /** Lower case, no brackets, no trailing dot: the form allow-lists and the resolver see. */
  hostname: string;
  port: number;
  tls: boolean;
}

/**
 * Parses with the WHATWG URL parser (the same one the connection layer would use, so there is no
 * parser differential) and refuses anything that is not a plain http(s) URL to a named host.
 * Decimal, octal, hex and short IPv4 forms come out of the parser as dotted-decimal, which is
 * what the address policy then classifies.
 */
export function checkUrl(input: string | URL): CheckedUrl {
  const text = typeof input === 'string' ? input.trim() : input.href;
  if (text.length > MAX_URL_LENGTH) throw invalidUrl(`it is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidUrl('it is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidUrl(`only http and https links are supported, not ${url.protocol.replace(/:$/, '')}:`, {
      scheme: url.protocol,
    });
  }
  if (url.username !== '' || url.password !== '') {
    // Credentials in a URL would be sent to the site, and stored with the source afterwards.
    throw invalidUrl('links with a user name or password in them are not accepted');
  }
  const hostname = unbracket(url.hostname).replace(/\.$/, '').toLowerCase();
  if (hostname === '') throw invalidUrl('it has no host name');
  const tls = url.protocol === 'https:';
  const port = url.port === '' ? (tls ? 443 : 80) : Number(url.port);
  if (BAD_PORTS.has(port)) {
    throw fetchError('FETCH_BLOCKED_PORT', {
      message: `Refused port ${port} of ${hostname}`,
      userMessage: `Port ${port} is not allowed: it belongs to a service that is not a website.`,
      nextStep: 'Save a link to a web page on a normal web port (80, 443, 8080 …).',
      httpStatus: 403,
      details: { host: hostname, port },
    });
  }
  return { url, hostname, port, tls };
}
