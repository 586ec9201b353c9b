import net from 'node:net';

/** An IP address as a number, so range checks are integer comparisons rather than string games. */
export interface ParsedIp {
  family: 4 | 6;
  /** 32 bits for IPv4, 128 bits for IPv6. */
  value: bigint;
}

/**
 * Parses an address in its canonical text form: dotted-decimal IPv4 without leading zeros, or
 * any valid IPv6 text (a zone id such as `%eth0` is dropped). Anything else returns undefined.
 *
 * Deliberately strict: `0177.0.0.1`, `2130706433` and `0x7f.1` are not addresses here. Those
 * forms only appear inside URLs, and the WHATWG URL parser has already rewritten them to
 * dotted-decimal by the time a hostname reaches this module; a resolver that answers with one
 * of them is broken or hostile, and the caller treats "not an address" as blocked.
 */
export function parseIp(text: string): ParsedIp | undefined {
  const zoneAt = text.indexOf('%');
  if (zoneAt === text.length - 1) return undefined;
  const withoutZone = zoneAt >= 0 ? text.slice(0, zoneAt) : text;
  const kind = net.isIP(withoutZone);
  if (kind === 4 && zoneAt < 0) return { family: 4, value: ipv4ToBigInt(withoutZone) };
  if (kind === 6) return { family: 6, value: ipv6ToBigInt(withoutZone) };
  return undefined;
}

function ipv4ToBigInt(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToBigInt(text: string): bigint {
  let source = text.toLowerCase();
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(source);
  if (dotted?.[1]) {
    const v4 = ipv4ToBigInt(dotted[1]);
    source = source.slice(0, dotted.index) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = source.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  const hextets = [...headParts, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailParts];
  return hextets.reduce((acc, part) => (acc << 16n) | BigInt(parseInt(part, 16)), 0n);
}

export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** A CIDR block, precomputed for matching. */
export interface IpRange {
  family: 4 | 6;
  prefix: number;
  network: bigint;
  cidr: string;
}

export function parseCidr(cidr: string): IpRange | undefined {
  const [addressText = '', prefixText] = cidr.split('/');
  const address = parseIp(addressText);
  if (!address) return undefined;
  const bits = address.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits || (prefixText !== undefined && !/^\d+$/.test(prefixText))) {
    return undefined;
  }
  const shift = BigInt(bits - prefix);
  return { family: address.family, prefix, network: (address.value >> shift) << shift, cidr };
}

export function rangeContains(range: IpRange, ip: ParsedIp): boolean {
  if (range.family !== ip.family) return false;
  const shift = BigInt((ip.family === 4 ? 32 : 128) - range.prefix);
  return (ip.value >> shift) << shift === range.network;
}

/** Strips the brackets WHATWG URL keeps around IPv6 hostnames: `[::1]` → `::1`. */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
