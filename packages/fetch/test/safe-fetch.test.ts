import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { isAppError, type AppError } from '@brain/errors';
import { startFakeHttpServer, type FakeHttpServer, type FakeResponse } from '@brain/testkit';
import { FETCH_DEFAULTS, safeFetch, type FetchedBody, type SafeFetchOptions } from '../src/index.ts';
import { createFakeInternet, PUBLIC_V4, type FakeInternet } from './helpers/fake-internet.ts';
import { startRawServer, type RawServer } from './helpers/servers.ts';

const MB = 1024 * 1024;
let site: FakeHttpServer;
let stream: RawServer;
let net: FakeInternet;
let options: SafeFetchOptions;

async function fetchBody(url: string, extra: Partial<SafeFetchOptions> = {}): Promise<FetchedBody> {
  const result = await safeFetch(url, { ...options, ...extra });
  if (result.notModified) throw new Error('unexpected 304');
  return result;
}

async function failure(url: string, extra: Partial<SafeFetchOptions> = {}): Promise<AppError> {
  const error = await safeFetch(url, { ...options, ...extra }).then(() => undefined, (e: unknown) => e);
  if (!isAppError(error)) throw new Error(`expected an AppError from ${url}, got ${String(error)}`);
  return error;
}

/** Gzip of `size` zero bytes, compressed as a stream so the test itself never holds `size`. */
async function gzipOfZeros(size: number): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const chunk = Buffer.alloc(MB);
  for (let written = 0; written < size; written += MB) {
    if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

beforeAll(async () => {
  site = await startFakeHttpServer('site');
  stream = await startRawServer((req, res) => {
    if (req.url === '/endless') {
      // Chunked, no Content-Length, never ends: only the byte cap stops it.
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    } else if (req.url === '/drip') {
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(timer));
    } else {
      res.writeHead(404).end();
    }
  });
  net = createFakeInternet();
  net.dns('site.example.com', [PUBLIC_V4]);
  net.route(PUBLIC_V4, site.port);
  net.dns('stream.example.com', ['93.184.215.20']);
  net.route('93.184.215.20', stream.port);
  options = { allowPrivateHosts: [], resolver: net.resolver, dialer: net.dialer };
});

afterAll(async () => {
  await Promise.all([site.close(), stream.close()]);
});

describe('defaults', () => {
  it('are the documented ones', () => {
    expect(FETCH_DEFAULTS).toMatchObject({ maxBytes: 20 * MB, timeoutMs: 20_000, maxRedirects: 5 });
  });
});

describe('size caps, counted after decompression', () => {
  it('refuses a declared 25 MB body from its Content-Length, before reading it', async () => {
    const body = Buffer.alloc(25 * MB, 'x');
    site.on('GET', '/big', () => ({ body, headers: { 'content-type': 'text/plain', 'content-length': String(body.length) } }));
    const error = await failure('http://site.example.com/big');
    expect(error.code).toBe('FETCH_TOO_LARGE');
    expect(error.details).toMatchObject({ declaredBytes: 25 * MB, limitBytes: 20 * MB });
    expect(error.retryable).toBe(false);
  });

  it('stops an endless chunked stream at the cap, holding no more than the cap', async () => {
    const rssBefore = process.memoryUsage().rss;
    const error = await failure('http://stream.example.com/endless');
    expect(error.code).toBe('FETCH_TOO_LARGE');
    const received = Number(error.details?.receivedBytes);
    expect(received).toBeGreaterThan(20 * MB);
    expect(received).toBeLessThan(20 * MB + MB);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(120 * MB);
  });

  it('stops a gzip bomb (256 KB that inflates to 256 MB) once 20 MB have come out', async () => {
    const bomb = await gzipOfZeros(256 * MB);
    expect(bomb.length).toBeLessThan(MB);
    site.on('GET', '/bomb', () => ({ body: bomb, headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' } }));
    const rssBefore = process.memoryUsage().rss;
    const error = await failure('http://site.example.com/bomb');
    expect(error.code).toBe('FETCH_TOO_LARGE');
    expect(error.details).toMatchObject({ encoded: true });
    expect(Number(error.details?.receivedBytes)).toBeLessThan(21 * MB);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(120 * MB);
  });

  it('decodes gzip, deflate and brotli bodies under the cap', async () => {
    const html = '<h1>compressed</h1>'.repeat(100);
    const encoders = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };
    for (const [encoding, encode] of Object.entries(encoders)) {
      site.on('GET', `/enc-${encoding}`, () => ({ body: encode(html), headers: { 'content-type': 'text/html', 'content-encoding': encoding } }));
      const result = await fetchBody(`http://site.example.com/enc-${encoding}`);
      expect(result.body.toString()).toBe(html);
    }
  });

  it('refuses stacked encodings and corrupt compressed bodies', async () => {
    site.on('GET', '/stacked', () => ({ body: 'x', headers: { 'content-type': 'text/html', 'content-encoding': 'gzip, gzip, gzip' } }));
    site.on('GET', '/corrupt', () => ({ body: 'not gzip at all', headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' } }));
    expect((await failure('http://site.example.com/stacked')).code).toBe('FETCH_BAD_RESPONSE');
    expect((await failure('http://site.example.com/corrupt')).code).toBe('FETCH_BAD_RESPONSE');
  });
});

describe('one deadline for the whole fetch', () => {
  it('a slow-drip server fails at the deadline, not when it stops dripping', async () => {
    const started = Date.now();
    const error = await failure('http://stream.example.com/drip', { timeoutMs: 800 });
    expect(error.code).toBe('FETCH_TIMEOUT');
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('the deadline spans redirects: two 500 ms hops exceed an 800 ms budget', async () => {
    site.on('GET', '/slow-hop', () => ({ status: 302, headers: { location: '/slow-end' }, delayMs: 500 }));
    site.on('GET', '/slow-end', () => ({ body: 'late', headers: { 'content-type': 'text/plain' }, delayMs: 500 }));
    expect((await failure('http://site.example.com/slow-hop', { timeoutMs: 800 })).code).toBe('FETCH_TIMEOUT');
    expect((await fetchBody('http://site.example.com/slow-hop', { timeoutMs: 3000 })).body.toString()).toBe('late');
  });

  it('a caller signal cancels the fetch with a retryable FETCH_ABORTED', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await failure('http://stream.example.com/drip', { signal: controller.signal });
    expect(error.code).toBe('FETCH_ABORTED');
    expect(error.retryable).toBe(true);
  });
});

describe('redirects', () => {
  beforeAll(() => {
    site.on('GET', '/chain/:n', (req): FakeResponse => {
      const n = Number(req.path.split('/')[2]);
      if (n === 0) return { body: 'end of chain', headers: { 'content-type': 'text/plain' } };
      return { status: 301, headers: { location: `/chain/${n - 1}` } };
    });
  });

  it('follows five and reports the final URL', async () => {
    const result = await fetchBody('http://site.example.com/chain/5');
    expect(result.url).toBe('http://site.example.com/chain/0');
    expect(result.body.toString()).toBe('end of chain');
  });

  it('refuses a sixth, and honours a lower maxRedirects', async () => {
    expect((await failure('http://site.example.com/chain/6')).code).toBe('FETCH_TOO_MANY_REDIRECTS');
    expect((await failure('http://site.example.com/chain/2', { maxRedirects: 1 })).code).toBe('FETCH_TOO_MANY_REDIRECTS');
  });
});

describe('content types', () => {
  it('refuses a type outside the allow-list from its headers', async () => {
    site.on('GET', '/app.zip', () => ({ body: Buffer.alloc(1024), headers: { 'content-type': 'application/zip' } }));
    const error = await failure('http://site.example.com/app.zip');
    expect(error.code).toBe('FETCH_UNSUPPORTED_TYPE');
    expect(error.userMessage).toContain('application/zip');
  });

  it.each([
    ['/doc', 'text/html; charset=utf-8', '<p>x</p>', 'text/html'],
    ['/doc.xhtml', 'application/xhtml+xml', '<html/>', 'application/xhtml+xml'],
    ['/notes', 'text/plain', 'plain', 'text/plain'],
    ['/readme', 'text/x-markdown', '# hi', 'text/markdown'],
    ['/paper', 'application/pdf', '%PDF-1.7 …', 'application/pdf'],
    ['/file.pdf', 'application/octet-stream', '%PDF-1.4 …', 'application/pdf'],
    ['/junk-then-pdf', 'application/octet-stream', 'junk\n%PDF-1.4', 'application/pdf'],
    ['/lying', 'text/html', '%PDF-1.4 …', 'application/pdf'],
    ['/README.md', 'application/octet-stream', '# Title\n\ntext', 'text/markdown'],
    ['/notes.txt', 'binary/octet-stream', 'just text', 'text/plain'],
    ['/untyped.md', '', '# no header', 'text/markdown'],
  ])('%s served as "%s" is %s', async (path, type, body, expected) => {
    const headers: Record<string, string> = type ? { 'content-type': type } : {};
    site.on('GET', path, () => ({ body, headers }));
    expect((await fetchBody(`http://site.example.com${path}`)).contentType).toBe(expected);
  });

  it.each([
    ['/binary.txt', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])],
    ['/latin1.md', Buffer.from([0x23, 0x20, 0xe9, 0xe8])],
    ['/no-extension', Buffer.from('text with no extension')],
  ])('an undeclared body that is not clearly text is refused: %s', async (path, body) => {
    site.on('GET', path, () => ({ body, headers: { 'content-type': 'application/octet-stream' } }));
    expect((await failure(`http://site.example.com${path}`)).code).toBe('FETCH_UNSUPPORTED_TYPE');
  });

  it('reports the charset from the header and leaves the bytes alone', async () => {
    const latin1 = Buffer.from('<p>caf\xe9</p>', 'latin1');
    site.on('GET', '/latin1', () => ({ body: latin1, headers: { 'content-type': 'text/html; charset="ISO-8859-1"' } }));
    const result = await fetchBody('http://site.example.com/latin1');
    expect(result.charset).toBe('iso-8859-1');
    expect(result.body.equals(latin1)).toBe(true);
  });
});

describe('conditional refresh', () => {
  beforeAll(() => {
    site.on('GET', '/cached', (req): FakeResponse =>
      req.headers['if-none-match'] === '"v1"' || req.headers['if-modified-since'] === 'Wed, 01 Jan 2025 00:00:00 GMT'
        ? { status: 304, headers: { etag: '"v1"' } }
        : { body: 'fresh', headers: { 'content-type': 'text/plain', etag: '"v1"', 'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT' } },
    );
  });

  it('returns the validators on a full response', async () => {
    const result = await fetchBody('http://site.example.com/cached');
    expect(result).toMatchObject({ etag: '"v1"', lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT', notModified: false });
  });

  it('turns a 304 into { notModified: true } with no body', async () => {
    const byEtag = await safeFetch('http://site.example.com/cached', { ...options, ifNoneMatch: '"v1"' });
    expect(byEtag).toEqual({ notModified: true, status: 304, url: 'http://site.example.com/cached', etag: '"v1"' });
    expect(site.requests.at(-1)?.headers['if-none-match']).toBe('"v1"');
    const byDate = await safeFetch('http://site.example.com/cached', { ...options, ifModifiedSince: 'Wed, 01 Jan 2025 00:00:00 GMT' });
    expect(byDate.notModified).toBe(true);
  });
});

describe('HTTP and network failures', () => {
  it.each([
    [404, false],
    [403, false],
    [410, false],
    [408, true],
    [429, true],
    [500, true],
    [503, true],
  ])('HTTP %i → FETCH_HTTP_STATUS, retryable %s', async (status, retryable) => {
    site.on('GET', `/status/${status}`, () => ({ status, body: 'no', headers: { 'content-type': 'text/plain', 'retry-after': '30' } }));
    const error = await failure(`http://site.example.com/status/${status}`);
    expect(error).toMatchObject({ code: 'FETCH_HTTP_STATUS', retryable, details: { status, retryAfter: '30' } });
  });

  it('an unknown host is FETCH_HOST_NOT_FOUND and not retried', async () => {
    const error = await failure('http://nowhere.example.com/');
    expect(error).toMatchObject({ code: 'FETCH_HOST_NOT_FOUND', retryable: false });
  });

  it('a refused connection is a retryable FETCH_NETWORK', async () => {
    const closed = await startRawServer(() => undefined);
    await closed.close();
    const error = await failure(`http://127.0.0.1:${closed.port}/`, { allowPrivateHosts: ['127.0.0.1'] });
    expect(error).toMatchObject({ code: 'FETCH_NETWORK', retryable: true });
  });

  it('an invalid allow-list entry is a configuration error naming the setting', async () => {
    const error = await failure('http://site.example.com/', { allowPrivateHosts: ['10.0.0.0/33'] });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('BRAIN_ALLOW_PRIVATE_HOSTS');
  });
});
