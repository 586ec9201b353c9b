import { AppError } from '@brain/errors';
import { parseCidr, parseIp, rangeContains, unbracket, type IpRange } from './ip-address.ts';

/**
 * The operator's exemptions (config `allowPrivateHosts`, env BRAIN_ALLOW_PRIVATE_HOSTS). Each
 * entry is a host name (exact match: `wiki.corp.example`), an IP address (`127.0.0.1`, `::1`) or
 * a CIDR block (`10.0.0.0/8`). A host name entry exempts every address that name resolves to; an
 * address entry exempts that address whichever name led to it.
 */
export interface AllowList {
  allowsHost(hostname: string): boolean;
  allowsAddress(address: string): boolean;
  readonly empty: boolean;
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/;

export function parseAllowList(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const ranges: IpRange[] = [];
  for (const raw of entries) {
    const entry = unbracket(raw.trim().toLowerCase()).replace(/\.$/, '');
    if (entry === '') continue;
    const range = parseCidr(entry);
    if (range) ranges.push(range);
    else if (HOSTNAME.test(entry) && !/^[\d.]+$/.test(entry)) hosts.add(entry);
    else {
      throw new AppError({
        code: 'CONFIG_INVALID',
        message: `BRAIN_ALLOW_PRIVATE_HOSTS has an entry that is neither a host name, an IP address nor a CIDR block: "${raw}"`,
        nextStep: 'Use a comma-separated list such as "wiki.internal,127.0.0.1,10.0.0.0/8".',
        details: { entry: raw },
      });
    }
  }
  return {
    empty: hosts.size === 0 && ranges.length === 0,
    allowsHost: (hostname) => hosts.has(hostname.toLowerCase().replace(/\.$/, '')),
    allowsAddress: (address) => {
      const ip = parseIp(address);
      return ip !== undefined && ranges.some((range) => rangeContains(range, ip));
    },
  };
}
