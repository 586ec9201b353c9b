import { describe, expect, it } from 'vitest';
import net from 'node:net';
import { classifyAddress, type AddressCategory } from '../src/index.ts';

describe('classifyAddress: IPv4', () => {
  it.each<[string, AddressCategory]>([
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.0', 'shared-cgnat'],
    ['100.127.255.255', 'shared-cgnat'],
    ['100.100.100.200', 'cloud-metadata'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.170.2', 'cloud-metadata'],
    ['168.63.129.16', 'cloud-metadata'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.1', 'ietf-protocol'],
    ['192.0.0.255', 'ietf-protocol'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.0.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.10', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['254.1.2.3', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is %s', (address, category) => {
    expect(classifyAddress(address)).toMatchObject({ category, public: false });
  });

  it.each(['1.1.1.1', '8.8.8.8', '93.184.215.14', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '192.0.1.255', '192.169.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.255', '169.253.255.255', '11.0.0.0', '126.255.255.255', '128.0.0.0'])(
    '%s is public (range edges included)',
    (address) => {
      expect(classifyAddress(address)).toMatchObject({ category: 'public', public: true });
    },
  );
});

describe('classifyAddress: IPv6', () => {
  it.each<[string, AddressCategory]>([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::7f00:1', 'reserved'],
    ['64:ff9b:1::1', 'private'],
    ['100::1', 'reserved'],
    ['2001::1', 'teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:db8::1', 'documentation'],
    ['2001:10::1', 'ietf-protocol'],
    ['3fff::1', 'documentation'],
    ['5f00::1', 'reserved'],
    ['fc00::1', 'unique-local'],
    ['fd00::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['1::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['e000::1', 'reserved'],
  ])('%s is %s', (address, category) => {
    expect(classifyAddress(address)).toMatchObject({ category, public: false });
  });

  it.each(['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:81c::200e', '2002:5db8:d70e::1', '64:ff9b::5db8:d70e', '64:ff9b::93.184.215.14'])(
    '%s is public',
    (address) => {
      expect(classifyAddress(address).public).toBe(true);
    },
  );

  it.each<[string, AddressCategory]>([
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'cloud-metadata'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'cloud-metadata'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:0:0::1', 'unspecified'],
  ])('NAT64 / 6to4 %s is judged by the IPv4 it carries: %s', (address, category) => {
    const verdict = classifyAddress(address);
    expect(verdict).toMatchObject({ category, public: false });
    expect(verdict.embedded?.category).toBe(category);
  });
});

describe('classifyAddress: not addresses', () => {
  it.each(['', 'localhost', '0177.0.0.1', '2130706433', '0x7f.1', '127.1', '01.2.3.4', '1.2.3.256', '[::1]', '::g', 'fe80::1%'])(
    '%j is invalid, never public',
    (text) => {
      expect(classifyAddress(text)).toMatchObject({ category: 'invalid', public: false });
    },
  );
});

/**
 * Property check against an independent implementation: Node's net.BlockList fed the same
 * blocks. Random addresses are drawn inside each special block and across the whole space.
 */
describe('classifyAddress agrees with net.BlockList on random addresses', () => {
  const v4Blocks: [string, number][] = [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
    ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
    ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4], ['168.63.129.16', 32],
  ];
  const reference = new net.BlockList();
  for (const [address, prefix] of v4Blocks) reference.addSubnet(address, prefix, 'ipv4');

  let seed = 42;
  const random32 = () => {
    // xorshift32: deterministic, so a failure reproduces.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const toText = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
  const inside = (address: string, prefix: number) => {
    const base = address.split('.').reduce((acc, p) => acc * 256 + Number(p), 0);
    const span = 2 ** (32 - prefix);
    return toText(base + (random32() % span));
  };

  it('20,000 IPv4 addresses, inside every block and anywhere', () => {
    const samples: string[] = [];
    for (const [address, prefix] of v4Blocks) for (let i = 0; i < 500; i++) samples.push(inside(address, prefix));
    while (samples.length < 20_000) samples.push(toText(random32()));
    const disagreements = samples.filter((a) => classifyAddress(a).public === reference.check(a, 'ipv4'));
    expect(disagreements).toEqual([]);
  });

  it('IPv4-mapped forms of the same samples are never public', () => {
    for (let i = 0; i < 2000; i++) expect(classifyAddress(`::ffff:${toText(random32())}`).public).toBe(false);
  });

  it('NAT64 forms carry the IPv4 verdict', () => {
    for (let i = 0; i < 2000; i++) {
      const v4 = toText(random32());
      expect(classifyAddress(`64:ff9b::${v4}`).public).toBe(!reference.check(v4, 'ipv4'));
    }
  });
});
