import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { startFakeHttpServer, type FakeHttpServer } from '@brain/testkit';
import { safeFetch, type SafeFetchOptions } from '../src/index.ts';
import { createFakeInternet, PUBLIC_V4, PUBLIC_V6, type FakeInternet } from './helpers/fake-internet.ts';
import { startRawServer, type RawServer } from './helpers/servers.ts';

/**
 * The SSRF matrix. Canaries listen on 127.0.0.1 and ::1; every blocked case aims at them with
 * the REAL dialer behind it (the fake internet only carries registered public addresses and
 * hands everything else to `defaultDialer`), so a hole in the guard would be a real request and
 * the final test would fail. The must-allow half proves the guard is not simply refusing all.
 */
let canary: FakeHttpServer;
let canary6: RawServer;
let site: FakeHttpServer;
let net: FakeInternet;

async function expectRefused(url: string, code: string, options: Partial<SafeFetchOptions> = {}) {
  const error = await safeFetch(url, { allowPrivateHosts: [], resolver: net.resolver, dialer: net.dialer, timeoutMs: 5000, ...options }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`${url} was not refused with an AppError: ${String(error)}`);
  expect({ url, code: error.code }).toEqual({ url, code });
  expect(error.retryable).toBe(false);
  return error;
}

beforeAll(async () => {
  canary = await startFakeHttpServer('canary');
  canary.on('GET', '/', () => ({ body: 'canary', headers: { 'content-type': 'text/html' } }));
  canary6 = await startRawServer((_req, res) => res.end('canary6'), '::1');
  site = await startFakeHttpServer('public-site');
  site.on('GET', '/', () => ({ body: '<p>public page</p>', headers: { 'content-type': 'text/html; charset=utf-8' } }));
  net = createFakeInternet();
  net.route(PUBLIC_V4, site.port);
  net.route(PUBLIC_V6, site.port);
  net.route('64:ff9b::5db8:d70e', site.port);
});

afterAll(async () => {
  await Promise.all([canary.close(), canary6.close(), site.close()]);
});

describe('blocked: IP literals, in every spelling the URL parser accepts', () => {
  const P = () => canary.port;
  const P6 = () => canary6.port;
  const cases: [string, () => string][] = [
    ['dotted loopback', () => `http://127.0.0.1:${P()}/`],
    ['decimal 2130706433', () => `http://2130706433:${P()}/`],
    ['octal 0177.0.0.1', () => `http://0177.0.0.1:${P()}/`],
    ['octal 017700000001', () => `http://017700000001:${P()}/`],
    ['hex 0x7f.1', () => `http://0x7f.1:${P()}/`],
    ['hex 0x7f000001', () => `http://0x7f000001:${P()}/`],
    ['short 127.1', () => `http://127.1:${P()}/`],
    ['fullwidth digits ０x7f.1', () => `http://０x7f.1:${P()}/`],
    ['percent-encoded %31%32%37.0.0.1', () => `http://%31%32%37.0.0.1:${P()}/`],
    ['0.0.0.0 (reaches this host on Linux)', () => `http://0.0.0.0:${P()}/`],
    ['0 (short for 0.0.0.0)', () => `http://0:${P()}/`],
    ['IPv6 loopback [::1]', () => `http://[::1]:${P6()}/`],
    ['IPv6 unspecified [::]', () => `http://[::]:${P6()}/`],
    ['IPv4-mapped [::ffff:127.0.0.1]', () => `http://[::ffff:127.0.0.1]:${P()}/`],
    ['IPv4-mapped hex [::ffff:7f00:1]', () => `http://[::ffff:7f00:1]:${P()}/`],
    ['IPv4-compatible [::127.0.0.1]', () => `http://[::127.0.0.1]:${P()}/`],
    ['6to4 [2002:7f00:1::]', () => `http://[2002:7f00:1::]:${P()}/`],
    ['NAT64 [64:ff9b::7f00:1]', () => `http://[64:ff9b::7f00:1]:${P()}/`],
    ['cloud metadata 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
    ['metadata, IPv4-mapped', () => 'http://[::ffff:169.254.169.254]/latest/meta-data/'],
    ['metadata, 6to4 [2002:a9fe:a9fe::1]', () => 'http://[2002:a9fe:a9fe::1]/'],
    ['metadata, NAT64 [64:ff9b::a9fe:a9fe]', () => 'http://[64:ff9b::a9fe:a9fe]/'],
    ['AWS IPv6 metadata [fd00:ec2::254]', () => 'http://[fd00:ec2::254]/latest/meta-data/'],
    ['Azure WireServer 168.63.129.16', () => 'http://168.63.129.16/machine'],
    ['leading-zero 012.0.0.1 (= 10.0.0.1)', () => 'http://012.0.0.1/'],
    ['RFC 1918 172.16.0.1', () => 'http://172.16.0.1/'],
    ['CGNAT 100.64.0.1', () => 'http://100.64.0.1/'],
    ['benchmarking 198.18.0.1', () => 'http://198.18.0.1/'],
    ['IPv6 link-local [fe80::1]', () => 'http://[fe80::1]/'],
    ['IPv6 unique-local [fc00::1]', () => 'http://[fc00::1]/'],
    ['multicast 224.0.0.1', () => 'http://224.0.0.1/'],
    ['broadcast 255.255.255.255', () => 'http://255.255.255.255/'],
    ['Teredo [2001::1]', () => 'http://[2001::1]/'],
  ];
  for (const [name, url] of cases) {
    it(name, async () => {
      const error = await expectRefused(url(), 'FETCH_BLOCKED_ADDRESS');
      expect(error.userMessage).toMatch(/^The address .+ is not allowed/);
    });
  }

  it('names the host and the setting for self-hosters in its message', async () => {
    const error = await expectRefused('http://169.254.169.254/latest/meta-data/', 'FETCH_BLOCKED_ADDRESS');
    expect(error.userMessage).toBe('The address 169.254.169.254 is not allowed: it is a cloud metadata service address.');
    expect(error.nextStep).toContain('BRAIN_ALLOW_PRIVATE_HOSTS');
    expect(error.nextStep).toMatch(/If you run Brain yourself/);
  });
});

describe('blocked: names', () => {
  it('localhost, localhost. and *.localhost, before any DNS', async () => {
    for (const host of ['localhost', 'localhost.', 'app.localhost']) {
      await expectRefused(`http://${host}:${canary.port}/`, 'FETCH_BLOCKED_ADDRESS');
    }
    expect(net.lookups.filter((h) => h.endsWith('localhost'))).toEqual([]);
  });

  it('metadata.google.internal resolving to the metadata address', async () => {
    net.dns('metadata.google.internal', ['169.254.169.254']);
    const error = await expectRefused('http://metadata.google.internal/computeMetadata/v1/', 'FETCH_BLOCKED_ADDRESS');
    expect(error.userMessage).toContain('metadata.google.internal (169.254.169.254)');
  });

  it.each([
    ['loopback via DNS (127.0.0.1.nip.io style)', '127.0.0.1.nip.io', '127.0.0.1'],
    ['10.x', 'db.example.com', '10.1.2.3'],
    ['192.168.x', 'router.example.com', '192.168.1.1'],
    ['fd00::/8', 'v6.example.com', 'fd00::1'],
    ['::1', 'six.example.com', '::1'],
    ['a non-canonical answer (0177.0.0.1)', 'odd.example.com', '0177.0.0.1'],
  ])('a DNS answer that is private: %s', async (_name, host, address) => {
    net.dns(host, [address]);
    await expectRefused(`http://${host}:${canary.port}/`, 'FETCH_BLOCKED_ADDRESS');
  });

  it('several answers of which ONE is private refuse the host', async () => {
    net.dns('mixed.example.com', [PUBLIC_V4, '127.0.0.1']);
    net.dns('mixed6.example.com', [PUBLIC_V6, '::1']);
    await expectRefused(`http://mixed.example.com:${canary.port}/`, 'FETCH_BLOCKED_ADDRESS');
    await expectRefused(`http://mixed6.example.com:${canary6.port}/`, 'FETCH_BLOCKED_ADDRESS');
  });

  it('an allow-listed name does not exempt other names with the same address', async () => {
    net.dns('other.internal', ['127.0.0.1']);
    await expectRefused(`http://other.internal:${canary.port}/`, 'FETCH_BLOCKED_ADDRESS', { allowPrivateHosts: ['wiki.internal'] });
  });
});

describe('blocked: redirects, schemes, credentials, proxies', () => {
  beforeAll(() => {
    net.dns('redirector.example.com', [PUBLIC_V4]);
    site.on('GET', '/to/:status', (req) => ({
      status: Number(req.path.split('/')[2]),
      headers: { location: `http://127.0.0.1:${canary.port}/` },
    }));
    site.on('GET', '/to-v6', () => ({ status: 302, headers: { location: `http://[::1]:${canary6.port}/` } }));
    site.on('GET', '/to-localhost', () => ({ status: 302, headers: { location: `http://localhost:${canary.port}/` } }));
    site.on('GET', '/to-file', () => ({ status: 302, headers: { location: 'file:///etc/passwd' } }));
    site.on('GET', '/loop', () => ({ status: 302, headers: { location: '/loop' } }));
  });

  it.each([301, 302, 303, 307, 308])('a public page that redirects (%i) to the loopback canary', async (status) => {
    await expectRefused(`http://redirector.example.com/to/${status}`, 'FETCH_BLOCKED_ADDRESS');
  });

  it('a redirect to [::1] and to localhost', async () => {
    await expectRefused('http://redirector.example.com/to-v6', 'FETCH_BLOCKED_ADDRESS');
    await expectRefused('http://redirector.example.com/to-localhost', 'FETCH_BLOCKED_ADDRESS');
  });

  it('a redirect to file:', async () => {
    const error = await expectRefused('http://redirector.example.com/to-file', 'FETCH_INVALID_URL');
    expect(error.message).toContain('redirects');
  });

  it('a redirect loop ends at the redirect cap', async () => {
    const before = site.requests.length;
    await expectRefused('http://redirector.example.com/loop', 'FETCH_TOO_MANY_REDIRECTS');
    expect(site.requests.length - before).toBe(6); // the first request and 5 redirects followed
  });

  it.each([
    'file:///etc/passwd',
    'ftp://example.com/file.txt',
    'gopher://127.0.0.1:70/_GET%20/',
    'data:text/html,<h1>hi</h1>',
    'javascript:alert(1)',
    'ws://example.com/socket',
    'not a url',
  ])('scheme or syntax refused: %s', async (url) => {
    await expectRefused(url, 'FETCH_INVALID_URL');
  });

  it('credentials in the URL', async () => {
    await expectRefused(`http://user:pass@127.0.0.1:${canary.port}/`, 'FETCH_INVALID_URL');
    await expectRefused('https://user:pass@example.com/', 'FETCH_INVALID_URL');
    await expectRefused('https://user@example.com/', 'FETCH_INVALID_URL');
  });

  it('a port browsers refuse (SMTP)', async () => {
    await expectRefused('http://example.com:25/', 'FETCH_BLOCKED_PORT');
  });

  it('HTTP_PROXY / HTTPS_PROXY / NODE_USE_ENV_PROXY pointing at the canary change nothing', async () => {
    const saved = { ...process.env };
    process.env.HTTP_PROXY = canary.url;
    process.env.http_proxy = canary.url;
    process.env.HTTPS_PROXY = canary.url;
    process.env.NODE_USE_ENV_PROXY = '1';
    try {
      await expectRefused('http://169.254.169.254/latest/meta-data/', 'FETCH_BLOCKED_ADDRESS');
      // And an allowed fetch goes straight to its server, not through the "proxy".
      const before = site.requests.length;
      const ok = await safeFetch(`http://127.0.0.1:${site.port}/`, { allowPrivateHosts: ['127.0.0.1'] });
      expect(ok.notModified).toBe(false);
      expect(site.requests.length).toBe(before + 1);
    } finally {
      for (const key of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'NODE_USE_ENV_PROXY']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });
});

describe('DNS rebinding', () => {
  it('connects to the address that was checked, and asks DNS once', async () => {
    // First answer public, every later answer the loopback canary.
    net.dns('rebind.example.com', (call) => (call === 1 ? [PUBLIC_V4] : ['127.0.0.1']));
    const lookupsBefore = net.lookups.length;
    const dialsBefore = net.dials.length;
    const result = await safeFetch(`http://rebind.example.com:${canary.port}/`, {
      allowPrivateHosts: [],
      resolver: net.resolver,
      dialer: net.dialer,
    });
    expect(result.notModified === false && result.body.toString()).toBe('<p>public page</p>');
    expect(net.lookups.slice(lookupsBefore)).toEqual(['rebind.example.com']);
    expect(net.dials.slice(dialsBefore).map((d) => d.addresses.map((a) => a.address))).toEqual([[PUBLIC_V4]]);
  });

  it('re-checks the host on the next hop: a same-host redirect after the rebind is refused', async () => {
    net.dns('rebind2.example.com', (call) => (call === 1 ? [PUBLIC_V4] : ['127.0.0.1']));
    site.on('GET', '/hop', () => ({ status: 302, headers: { location: '/' } }));
    await expectRefused(`http://rebind2.example.com:${canary.port}/hop`, 'FETCH_BLOCKED_ADDRESS');
  });

  it('the real dialer never resolves again: a name only the injected resolver knows still connects', async () => {
    // System DNS has no answer for .invalid (RFC 6761); success proves the socket used the
    // checked address handed to it, not a second lookup.
    net.dns('rebind.invalid', (call) => (call === 1 ? ['127.0.0.1'] : ['10.9.9.9']));
    const before = site.requests.length;
    const result = await safeFetch(`http://rebind.invalid:${site.port}/`, {
      allowPrivateHosts: ['127.0.0.1'],
      resolver: net.resolver,
    });
    expect(result.status).toBe(200);
    expect(site.requests.length).toBe(before + 1);
    expect(site.requests.at(-1)?.headers.host).toBe(`rebind.invalid:${site.port}`);
  });
});

describe('must allow: public addresses are fetched', () => {
  it('a public host name, through the checked public address', async () => {
    net.dns('docs.example.com', [PUBLIC_V4]);
    const before = site.requests.length;
    const result = await safeFetch('http://docs.example.com/', { allowPrivateHosts: [], resolver: net.resolver, dialer: net.dialer });
    expect(result).toMatchObject({ notModified: false, status: 200, contentType: 'text/html', charset: 'utf-8', url: 'http://docs.example.com/' });
    expect(site.requests.length).toBe(before + 1);
    expect(site.requests.at(-1)?.headers.host).toBe('docs.example.com');
    expect(net.dials.at(-1)).toMatchObject({ hostname: 'docs.example.com', port: 80, tls: false, addresses: [{ address: PUBLIC_V4, family: 4 }] });
  });

  it('a public IPv6-only host, a public IP literal, and NAT64 carrying a public IPv4', async () => {
    net.dns('v6only.example.com', [PUBLIC_V6]);
    for (const url of ['http://v6only.example.com/', `http://${PUBLIC_V4}/`, 'http://[64:ff9b::5db8:d70e]/']) {
      const result = await safeFetch(url, { allowPrivateHosts: [], resolver: net.resolver, dialer: net.dialer });
      expect(result.status).toBe(200);
    }
  });

  it('a private host the operator allow-listed by name, over the real network', async () => {
    net.dns('wiki.internal', ['127.0.0.1']);
    const result = await safeFetch(`http://wiki.internal:${site.port}/`, { allowPrivateHosts: ['wiki.internal'], resolver: net.resolver });
    expect(result.status).toBe(200);
  });

  it('a private address the operator allow-listed by CIDR', async () => {
    const result = await safeFetch(`http://127.0.0.1:${site.port}/`, { allowPrivateHosts: ['127.0.0.0/8'] });
    expect(result.status).toBe(200);
  });
});

describe('the canaries', () => {
  it('recorded zero requests across the whole matrix', () => {
    expect(canary.requests.length).toBe(0);
    expect(canary6.hits).toBe(0);
  });
});
