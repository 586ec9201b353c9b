import { describe, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { pinnedLookup } from '../src/dial.ts';
import { parseAllowList } from '../src/index.ts';
import { checkUrl } from '../src/url-policy.ts';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return isAppError(error) ? error.code : String(error);
  }
}

describe('the WHATWG URL parser normalises IPv4 spellings before the policy sees them', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://127.0.1/', '127.0.0.1'],
    ['http://012.0.0.1/', '10.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1'],
    ['http://LOCALHOST./', 'localhost'],
  ])('%s → %s', (url, hostname) => {
    expect(checkUrl(url).hostname).toBe(hostname);
  });

  it('rejects IPv4 forms it cannot parse rather than guessing', () => {
    expect(codeOf(() => checkUrl('http://1.2.3.4.5/'))).toBe('FETCH_INVALID_URL');
    expect(codeOf(() => checkUrl('http://0x100000000/'))).toBe('FETCH_INVALID_URL');
    expect(codeOf(() => checkUrl('http://[fe80::1%25eth0]/'))).toBe('FETCH_INVALID_URL');
  });
});

describe('checkUrl', () => {
  it('accepts http and https on default and non-standard ports', () => {
    expect(checkUrl('https://docs.example.com/a?b=1#c')).toMatchObject({ hostname: 'docs.example.com', port: 443, tls: true });
    expect(checkUrl('http://docs.example.com:8080/')).toMatchObject({ port: 8080, tls: false });
    expect(checkUrl('https://docs.example.com:8443/')).toMatchObject({ port: 8443 });
  });

  it.each(['http://example.com:25/', 'http://example.com:22/', 'https://example.com:6667/', 'http://example.com:0/'])(
    'refuses the Fetch Standard bad port in %s',
    (url) => {
      expect(codeOf(() => checkUrl(url))).toBe('FETCH_BLOCKED_PORT');
    },
  );

  it('refuses overlong URLs', () => {
    expect(codeOf(() => checkUrl(`https://example.com/${'a'.repeat(9000)}`))).toBe('FETCH_INVALID_URL');
  });
});

describe('parseAllowList', () => {
  const list = parseAllowList(['Wiki.Internal.', '127.0.0.1', '[::1]', '10.0.0.0/8', ' ', 'fd00::/8']);
  it('matches host names exactly, case- and trailing-dot-insensitively', () => {
    expect(list.allowsHost('wiki.internal')).toBe(true);
    expect(list.allowsHost('WIKI.internal.')).toBe(true);
    expect(list.allowsHost('evil.wiki.internal')).toBe(false);
  });
  it('matches addresses and CIDR blocks', () => {
    expect(list.allowsAddress('127.0.0.1')).toBe(true);
    expect(list.allowsAddress('127.0.0.2')).toBe(false);
    expect(list.allowsAddress('::1')).toBe(true);
    expect(list.allowsAddress('10.200.3.4')).toBe(true);
    expect(list.allowsAddress('fd12::1')).toBe(true);
    expect(list.allowsAddress('11.0.0.1')).toBe(false);
  });
  it('is empty when nothing is configured', () => {
    expect(parseAllowList([]).empty).toBe(true);
    expect(parseAllowList(['', ' ']).empty).toBe(true);
  });
  it.each(['10.0.0.0/33', '1.2.3', 'bad host', 'http://x', '127.0.0.1/8x'])('refuses %j as CONFIG_INVALID', (entry) => {
    expect(codeOf(() => parseAllowList([entry]))).toBe('CONFIG_INVALID');
  });
});

describe('pinnedLookup', () => {
  const lookup = pinnedLookup([
    { address: '93.184.215.14', family: 4 },
    { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
  ]);
  const call = (options: object) =>
    new Promise<unknown[]>((resolve) => lookup('any-name.example', options, (...args: unknown[]) => resolve(args)));

  it('answers with the checked addresses whatever name it is asked about', async () => {
    expect(await call({})).toEqual([null, '93.184.215.14', 4]);
    expect(await call({ family: 6 })).toEqual([null, '2606:2800:21f:cb07:6820:80da:af6b:8b2c', 6]);
    expect(await call({ all: true })).toEqual([
      null,
      [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
    ]);
  });

  it('fails rather than invent an address of a family it was not given', async () => {
    const v4only = pinnedLookup([{ address: '93.184.215.14', family: 4 }]);
    const [error] = await new Promise<unknown[]>((resolve) => v4only('x', { family: 6 }, (...args: unknown[]) => resolve(args)));
    expect((error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});
