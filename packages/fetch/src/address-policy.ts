import { formatIpv4, parseCidr, parseIp, rangeContains, type IpRange, type ParsedIp } from './ip-address.ts';

/**
 * Which addresses the fetcher may connect to. Sources: the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (RFC 6890 and successors), RFC 6598 (shared CGNAT space), RFC 9637 (IPv6
 * documentation 3fff::/20), and the cloud providers' metadata endpoints.
 *
 * IPv6 is default-deny: only global unicast (2000::/3) minus the special ranges inside it is
 * public. IPv4 is default-allow minus the registry, because all of IPv4 outside it is routable.
 */
export type AddressCategory =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared-cgnat'
  | 'link-local'
  | 'cloud-metadata'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'ietf-protocol'
  | 'unique-local'
  | 'ipv4-mapped'
  | 'teredo'
  | 'invalid';

export interface AddressClassification {
  address: string;
  category: AddressCategory;
  /** Only `public` addresses are connectable without an allow-list entry. */
  public: boolean;
  /** The special-purpose block that matched, e.g. `127.0.0.0/8`. */
  range?: string;
  /** For NAT64 and 6to4 addresses: the IPv4 address they carry, classified on its own. */
  embedded?: AddressClassification;
}

interface SpecialRange extends IpRange {
  category: Exclude<AddressCategory, 'public' | 'invalid'>;
}

// Order matters: the first match wins, so the narrow blocks (metadata, broadcast) come before
// the wide ones that contain them.
const SPECIAL_RANGES: readonly SpecialRange[] = (
  [
    ['169.254.169.254/32', 'cloud-metadata'], // AWS, GCP, Azure, OCI, DigitalOcean instance metadata
    ['169.254.170.2/32', 'cloud-metadata'], // AWS ECS task metadata and credentials
    ['168.63.129.16/32', 'cloud-metadata'], // Azure WireServer: a public-looking address only a VM can reach
    ['100.100.100.200/32', 'cloud-metadata'], // Alibaba Cloud metadata
    ['fd00:ec2::254/128', 'cloud-metadata'], // AWS IMDS over IPv6
    ['0.0.0.0/8', 'unspecified'], // "this network": Linux connects 0.0.0.0 to the local host
    ['10.0.0.0/8', 'private'],
    ['100.64.0.0/10', 'shared-cgnat'],
    ['127.0.0.0/8', 'loopback'],
    ['169.254.0.0/16', 'link-local'],
    ['172.16.0.0/12', 'private'],
    ['192.0.0.0/24', 'ietf-protocol'],
    ['192.0.2.0/24', 'documentation'],
    ['192.88.99.0/24', 'reserved'], // deprecated 6to4 relay anycast
    ['192.168.0.0/16', 'private'],
    ['198.18.0.0/15', 'benchmarking'],
    ['198.51.100.0/24', 'documentation'],
    ['203.0.113.0/24', 'documentation'],
    ['224.0.0.0/4', 'multicast'],
    ['255.255.255.255/32', 'broadcast'],
    ['240.0.0.0/4', 'reserved'],
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['::ffff:0:0/96', 'ipv4-mapped'],
    ['::/96', 'reserved'], // deprecated IPv4-compatible addresses (::a.b.c.d)
    ['64:ff9b:1::/48', 'private'], // local-use NAT64 (RFC 8215)
    ['100::/64', 'reserved'], // discard-only
    ['2001::/32', 'teredo'],
    ['2001:db8::/32', 'documentation'],
    ['2001::/23', 'ietf-protocol'],
    ['3fff::/20', 'documentation'],
    ['5f00::/16', 'reserved'], // SRv6 SIDs
    ['fc00::/7', 'unique-local'],
    ['fe80::/10', 'link-local'],
    ['fec0::/10', 'private'], // deprecated site-local
    ['ff00::/8', 'multicast'],
  ] as const
).map(([cidr, category]) => {
  const range = parseCidr(cidr);
  if (!range) throw new Error(`bad built-in range ${cidr}`);
  return { ...range, category };
});

const GLOBAL_UNICAST = requireCidr('2000::/3');
const NAT64 = requireCidr('64:ff9b::/96');
const SIX_TO_FOUR = requireCidr('2002::/16');

function requireCidr(cidr: string): IpRange {
  const range = parseCidr(cidr);
  if (!range) throw new Error(`bad built-in range ${cidr}`);
  return range;
}

/**
 * Classifies one address. Text that is not a canonical IP address is `invalid` (never public).
 *
 * IPv4-mapped IPv6 (::ffff:a.b.c.d) is refused whatever it carries: no DNS server answers with
 * one, so in a URL or an answer it is an attempt to dress up an IPv4 address. NAT64 (64:ff9b::/96)
 * and 6to4 (2002::/16) are legitimate on IPv6-only networks, so they are judged by the IPv4
 * address they carry: `[64:ff9b::7f00:1]` is loopback, `[64:ff9b::5db8:d70e]` is public.
 */
export function classifyAddress(address: string): AddressClassification {
  const ip = parseIp(address);
  if (!ip) return { address, category: 'invalid', public: false };

  if (ip.family === 6) {
    const embedded = embeddedIpv4(ip);
    if (embedded !== undefined) {
      const inner = classifyAddress(formatIpv4(embedded.value));
      const range = rangeContains(NAT64, ip) ? NAT64.cidr : SIX_TO_FOUR.cidr;
      return { address, category: inner.category, public: inner.public, range, embedded: inner };
    }
  }

  const special = SPECIAL_RANGES.find((r) => rangeContains(r, ip));
  if (special) return { address, category: special.category, public: false, range: special.cidr };
  if (ip.family === 6 && !rangeContains(GLOBAL_UNICAST, ip)) {
    return { address, category: 'reserved', public: false, range: 'outside 2000::/3' };
  }
  return { address, category: 'public', public: true };
}

function embeddedIpv4(ip: ParsedIp): ParsedIp | undefined {
  if (rangeContains(NAT64, ip)) return { family: 4, value: ip.value & 0xffffffffn };
  if (rangeContains(SIX_TO_FOUR, ip)) return { family: 4, value: (ip.value >> 80n) & 0xffffffffn };
  return undefined;
}

/** Why an address is refused, in words a Discord user or an operator understands. */
export function describeCategory(category: AddressCategory): string {
  switch (category) {
    case 'public':
      return 'a public address';
    case 'unspecified':
      return 'the unspecified address, which reaches this machine';
    case 'loopback':
      return 'a loopback address (this machine)';
    case 'private':
    case 'unique-local':
      return 'a private network address';
    case 'shared-cgnat':
      return 'a carrier-grade NAT (shared private) address';
    case 'link-local':
      return 'a link-local address';
    case 'cloud-metadata':
      return 'a cloud metadata service address';
    case 'multicast':
      return 'a multicast address';
    case 'broadcast':
      return 'the broadcast address';
    case 'documentation':
      return 'a documentation-only address';
    case 'benchmarking':
      return 'a benchmarking-only address';
    case 'ietf-protocol':
    case 'reserved':
    case 'teredo':
      return 'a reserved address';
    case 'ipv4-mapped':
      return 'an IPv4 address disguised as IPv6';
    case 'invalid':
      return 'not a valid address';
  }
}
