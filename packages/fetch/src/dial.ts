import net, { type LookupFunction } from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import type { ResolvedAddress } from './address-guard.ts';

export interface DialTarget {
  /** The URL's host name (no brackets): TLS verifies the certificate against it. */
  hostname: string;
  /** The addresses that passed the check, and the only ones that may be connected to. */
  addresses: readonly ResolvedAddress[];
  port: number;
  tls: boolean;
  /** Extra trusted certificate authorities (an internal CA of a self-hosted site). */
  ca?: string | Buffer | readonly (string | Buffer)[];
}

/**
 * Opens the connection for one request. The network edge: production uses `defaultDialer`;
 * tests substitute one that routes the checked public address to a loopback server, which is how
 * the must-allow half of the SSRF matrix really fetches without a real network.
 */
export type Dialer = (target: DialTarget) => Duplex;

/**
 * Connects by the host name with a `lookup` pinned to the checked addresses: the socket can only
 * ever reach an address that was classified, so a DNS answer that changes between the check and
 * the connect (rebinding) is never consulted. Keeping the host name (rather than dialling a bare
 * IP) keeps TLS SNI and certificate checks on the name, and lets Happy Eyeballs race the checked
 * IPv4 and IPv6 addresses as usual. IP-literal hosts skip lookup entirely; they were checked too.
 *
 * No agent is involved, so HTTP(S)_PROXY and NODE_USE_ENV_PROXY can never move the connection.
 */
export const defaultDialer: Dialer = (target) => {
  const lookup = pinnedLookup(target.addresses);
  const base = { host: target.hostname, port: target.port, lookup, autoSelectFamily: target.addresses.length > 1 };
  if (!target.tls) return net.connect(base);
  return tls.connect({
    ...base,
    servername: net.isIP(target.hostname) ? undefined : target.hostname,
    ALPNProtocols: ['http/1.1'],
    ...(target.ca ? { ca: target.ca as string | Buffer | (string | Buffer)[] } : {}),
  });
};

export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((a) => wanted === undefined || a.family === wanted);
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error('no checked address of the requested family');
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
      return;
    }
    if (options.all) {
      (callback as unknown as (err: null, all: { address: string; family: number }[]) => void)(null, [...usable]);
    } else {
      callback(null, first.address, first.family);
    }
  };
}
