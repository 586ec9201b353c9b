import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isAppError } from '@brain/errors';
import { safeFetch } from '../src/index.ts';
import { createFakeInternet, PUBLIC_V4, PUBLIC_V4_B } from './helpers/fake-internet.ts';
import { startRawServer, type RawServer } from './helpers/servers.ts';

/** A throwaway self-signed certificate for localhost and secure.example.com, made by openssl. */
function makeCertificate(): { key: string; cert: string } | string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brain-fetch-tls-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,DNS:secure.example.com',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'pipe' });
    return { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } catch (error) {
    return `openssl could not make a test certificate (${String(error)})`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const material = makeCertificate();
const skipReason = typeof material === 'string' ? material : undefined;
if (skipReason) console.warn(`[tls.test] skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('https', () => {
  const { key, cert } = material as { key: string; cert: string };
  let server: https.Server;
  let port: number;
  let plain: RawServer;

  beforeAll(async () => {
    server = https.createServer({ key, cert }, (req, res) => {
      if (req.url === '/down') {
        res.writeHead(302, { location: 'http://plain.example.com/' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>secure ${req.headers.host}</p>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    plain = await startRawServer((_req, res) => res.end('downgraded'));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await plain.close();
  });

  it('the real dialer verifies the certificate against the host name (SNI), trusting a given CA', async () => {
    const result = await safeFetch(`https://localhost:${port}/`, { allowPrivateHosts: ['localhost'], ca: cert });
    expect(result.notModified === false && result.body.toString()).toBe(`<p>secure localhost:${port}</p>`);
  });

  it('an untrusted certificate is FETCH_TLS, not retried', async () => {
    const error = await safeFetch(`https://localhost:${port}/`, { allowPrivateHosts: ['localhost'] }).catch((e: unknown) => e);
    expect(isAppError(error) && [error.code, error.retryable]).toEqual(['FETCH_TLS', false]);
  });

  it('refuses a redirect from https down to http, and never makes the insecure request', async () => {
    const net = createFakeInternet();
    net.dns('secure.example.com', [PUBLIC_V4]);
    net.route(PUBLIC_V4, port, { ca: cert });
    net.dns('plain.example.com', [PUBLIC_V4_B]);
    net.route(PUBLIC_V4_B, plain.port);
    const options = { allowPrivateHosts: [], resolver: net.resolver, dialer: net.dialer };

    const ok = await safeFetch('https://secure.example.com/', options);
    expect(ok.status).toBe(200);
    const error = await safeFetch('https://secure.example.com/down', options).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe('FETCH_INSECURE_REDIRECT');
    expect(plain.hits).toBe(0);
  });
});
