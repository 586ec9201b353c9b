import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import { describeDb } from '@brain/db/testing';
import {
  createDiscordApi,
  createDiscordSurface,
  generateDevKeyPair,
  PLAYGROUND,
  PlaygroundChannel,
  PlaygroundGateway,
  slashCommands,
  startDiscordEmulator,
  type DiscordEmulator,
} from '@brain/discord';
import { createLogger } from '@brain/observability';
import { expectNoMoreCalls, waitUntil } from '@brain/testkit';
import { startWebServer, type WebServer } from '../src/index.ts';
import { claimedWorkspace } from './dashboard-harness.ts';
import { startHarness, type Harness } from './onboarding-harness.ts';

const logger = createLogger({ level: 'silent' });
const ATTACKER = 'rebind.attacker.example';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A raw request to the listening server with a chosen Host header, from this machine: what a
 * browser does once an attacker's name resolves to 127.0.0.1 (fetch cannot set Host).
 */
function request(port: number, method: string, path: string, headers: Record<string, string>, body?: string, readMs = 1500): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      // An event stream never ends: read what it sends for a while, then hang up.
      const timer = setTimeout(() => {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
      }, readMs);
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface EventStream {
  /** Everything the stream has sent so far. */
  text(): string;
  hangUp(): void;
}

/** An event stream held open until the test hangs up; resolves once the server has subscribed it (its first write). */
function openEventStream(port: number, headers: Record<string, string>): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/playground/events', headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        const first = text === '';
        text += d.toString();
        // The route subscribes in the same tick as this first write.
        if (first) resolve({ text: () => text, hangUp: () => res.destroy() });
      });
    });
    req.on('error', reject);
  });
}

describeDb('the playground under DNS rebinding and from other sites', (suite) => {
  const channel = new PlaygroundChannel();
  const keys = generateDevKeyPair();
  let emulator: DiscordEmulator;
  let web: WebServer;
  let port = 0;

  beforeAll(async () => {
    emulator = await startDiscordEmulator(channel, logger);
    const [local] = await suite.db.query<{ id: string }>("insert into workspaces (slug) values ('local-rebind') returning id");
    const surface = createDiscordSurface({
      db: suite.db,
      logger,
      ask: async () => Promise.reject(new Error('not in this test')),
      checkEntitlement: async () => ({ allowed: true }),
      downloadAttachment: async () => Promise.reject(new Error('not in this test')),
      links: { install: () => 'http://x/install', claim: () => 'http://x/claim' },
      discord: { publicKey: generateDevKeyPair().publicKeyHex, api: createDiscordApi({ apiBase: 'http://127.0.0.1:9/api' }) },
      playground: { publicKey: keys.publicKeyHex, api: createDiscordApi({ apiBase: emulator.apiBase, retries: 0 }), guildId: PLAYGROUND.guildId, workspaceId: local?.id as string },
    });
    const gateway = new PlaygroundGateway(channel, keys, Object.values(slashCommands).map((c) => c.definition));
    web = await startWebServer({ config: loadConfig({}, { cwd: process.cwd() }), db: suite.db, logger, discord: surface, playground: { channel, gateway } }, { port: 0 });
    port = Number(new URL(web.url).port);
  });
  afterAll(async () => {
    await web.close();
    await emulator.close();
  });

  /** A viewer's cookie, as the page sets it for a browser on this machine. */
  async function viewer(host: string): Promise<string> {
    const page = await request(port, 'GET', '/playground', { host });
    expect(page.status).toBe(200);
    return String([page.headers['set-cookie']].flat()[0]).split(';')[0] as string;
  }

  it('refuses a foreign Host with a matching Origin: it cannot save, read the state or the event stream, or get a viewer cookie', async () => {
    const host = `${ATTACKER}:${port}`;
    const origin = `http://${host}`;
    const savesBefore = await suite.db.query('select 1 from artifacts');
    const page = await request(port, 'GET', '/playground', { host });
    expect(page.status).toBe(421);
    expect(page.headers['set-cookie']).toBeUndefined();
    const cookie = await viewer(`127.0.0.1:${port}`);
    const save = await request(port, 'POST', '/playground/send', { host, origin, cookie }, JSON.stringify({ text: '/save text: planted by the attacker' }));
    expect(save.status).toBe(421);
    expect(JSON.parse(save.body)).toMatchObject({ error: 'HOST_NOT_ALLOWED' });
    expect(JSON.parse(save.body).message).toContain('localhost');
    for (const path of ['/playground/state', '/playground/events', '/playground/assets/app.js']) {
      const res = await request(port, 'GET', path, { host, origin, cookie });
      expect(res.status, path).toBe(421);
    }
    for (const path of ['/playground/autocomplete', '/playground/press', '/playground/save-message']) {
      expect((await request(port, 'POST', path, { host, origin, cookie }, JSON.stringify({ text: '/forget source: a', messageId: '1', customId: 'x' }))).status, path).toBe(421);
    }
    // A refused request must leave nothing behind, not even later: no message reaches the channel.
    await expectNoMoreCalls(() => channel.messages, 200);
    expect(await suite.db.query('select 1 from artifacts')).toHaveLength(savesBefore.length);
    expect(JSON.stringify(channel.messages)).not.toContain('planted');
  });

  it('refuses a POST from another site (or with no Origin) even under a loopback Host', async () => {
    const host = `127.0.0.1:${port}`;
    const cookie = await viewer(host);
    for (const origin of [`http://${ATTACKER}`, `http://localhost:${port}`, 'null', undefined]) {
      const res = await request(port, 'POST', '/playground/send', { host, cookie, ...(origin ? { origin } : {}) }, JSON.stringify({ text: 'hello from elsewhere' }));
      expect(res.status, String(origin)).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'ORIGIN_NOT_ALLOWED' });
    }
    expect(JSON.stringify(channel.messages)).not.toContain('hello from elsewhere');
  });

  it('serves this machine under localhost, 127.0.0.0/8 and [::1], each with its own Origin', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `127.8.9.10:${port}`, `[::1]:${port}`]) {
      const cookie = await viewer(host);
      const res = await request(port, 'POST', '/playground/send', { host, origin: `http://${host}`, cookie }, JSON.stringify({ text: `hello via ${host}` }));
      expect(res.status, host).toBe(200);
    }
    expect(channel.messages.filter((m) => m.content.startsWith('hello via'))).toHaveLength(4);
  });

  it('needs the viewer cookie to act: a reply must have someone to go to', async () => {
    const host = `127.0.0.1:${port}`;
    const res = await request(port, 'POST', '/playground/send', { host, origin: `http://${host}` }, JSON.stringify({ text: '/sources' }));
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'PLAYGROUND_VIEWER_MISSING' });
  });

  it('delivers an ephemeral reply to the viewer who asked only: never in another viewer’s state or event stream', async () => {
    const host = `127.0.0.1:${port}`;
    const origin = `http://${host}`;
    const asker = await viewer(host);
    const other = await viewer(host);
    expect(other).not.toBe(asker);
    const watching = await openEventStream(port, { host, cookie: other });
    const shared = await openEventStream(port, { host });
    const sent = await request(port, 'POST', '/playground/send', { host, origin, cookie: asker }, JSON.stringify({ text: '/sources' }));
    expect(JSON.parse(sent.body)).toMatchObject({ status: 200, responseType: 5 });
    const stateOf = async (cookie?: string) => JSON.parse((await request(port, 'GET', '/playground/state', { host, ...(cookie ? { cookie } : {}) })).body) as { messages: { invocation?: string; state: string; ephemeral: boolean; embeds: unknown[] }[] };
    const reply = async () => (await stateOf(asker)).messages.find((m) => m.invocation === '/sources');
    await waitUntil(async () => (await reply())?.state === 'done', { what: 'the /sources reply to be done' });
    expect(await reply()).toMatchObject({ ephemeral: true, state: 'done' });
    expect(JSON.stringify(await reply())).toContain('Nothing saved yet');
    // A shared message after the reply: once both streams carry it, anything the reply leaked to them has arrived before it.
    await request(port, 'POST', '/playground/send', { host, origin, cookie: asker }, JSON.stringify({ text: 'after the reply' }));
    await waitUntil(() => watching.text().includes('after the reply') && shared.text().includes('after the reply'), { what: 'both event streams to carry the shared message' });
    watching.hangUp();
    shared.hangUp();
    for (const seen of [JSON.stringify(await stateOf(other)), JSON.stringify(await stateOf()), watching.text(), shared.text(), JSON.stringify(channel.messages)]) {
      expect(seen).not.toContain('Nothing saved yet');
      expect(seen).not.toContain('/sources');
    }
  });
});

describe('where the web server listens', () => {
  it('binds loopback by default in embedded mode and every interface in PostgreSQL mode (or as HOST says)', async () => {
    for (const [env, address] of [
      [{}, '127.0.0.1'],
      [{ HOST: '0.0.0.0' }, '0.0.0.0'],
      [{ DATABASE_URL: 'postgres://u@db.example.com/app' }, '0.0.0.0'],
    ] as const) {
      // Listening touches no database (only a request to /healthz would): none is given.
      const web = await startWebServer({ config: loadConfig({ ...env, PORT: '0' }, { cwd: process.cwd() }), db: undefined as never, logger });
      try {
        expect((web.app.server.address() as { address: string }).address, JSON.stringify(env)).toBe(address);
      } finally {
        await web.close();
      }
    }
  });
});

describeDb('install, claim, login, dashboard and the dev outbox under a foreign Host', (suite) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(suite.db);
    await claimedWorkspace(suite.db, 'owned', 'owner@example.com');
    // A live link in the outbox, as after someone asked to log in.
    await h.outbox.send({ to: 'owner@example.com', purpose: 'login', url: `${h.config.publicUrl}/login/confirm?token=live-token`, workspaceName: 'owned', expiresAt: new Date(Date.now() + 600_000) });
  });
  afterAll(() => h.close());

  const PAGES: { method: 'GET' | 'POST'; url: string }[] = [
    { method: 'GET', url: '/install' },
    { method: 'GET', url: '/install/callback?code=x&state=y' },
    { method: 'GET', url: '/claim?grant=x' },
    { method: 'POST', url: '/claim' },
    { method: 'GET', url: '/claim/confirm?token=x' },
    { method: 'GET', url: '/login' },
    { method: 'POST', url: '/login' },
    { method: 'GET', url: '/login/confirm?token=live-token' },
    { method: 'POST', url: '/login/confirm' },
    { method: 'GET', url: '/dashboard' },
    { method: 'GET', url: '/dashboard/sources' },
    { method: 'GET', url: '/billing/checkout?w=x' },
    { method: 'GET', url: '/dev/outbox' },
  ];

  it('refuses every browser page with a 421 page that names the host to use', async () => {
    for (const { method, url } of PAGES) {
      const res = await h.app.inject({
        method,
        url,
        headers: { host: ATTACKER, origin: `http://${ATTACKER}`, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(method === 'POST' ? { payload: 'email=owner%40example.com&csrf=x' } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(421);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.body, url).toContain('brain.example.com');
      expect(res.body, url).not.toContain('live-token');
    }
    await h.drain();
    expect(h.outbox.entries()).toHaveLength(1);
  });

  it('serves them under PUBLIC_URL’s host and this machine’s names', async () => {
    for (const host of ['brain.example.com', 'brain.example.com:443', 'localhost:3000', '127.0.0.1', '[::1]:3000']) {
      const res = await h.app.inject({ method: 'GET', url: '/login', headers: { host } });
      expect(res.statusCode, host).toBe(200);
    }
    const outbox = await h.app.inject({ method: 'GET', url: '/dev/outbox', headers: { host: 'localhost:3000' } });
    expect(outbox.statusCode).toBe(200);
    expect(outbox.body).toContain('live-token');
    // PUBLIC_URL's host on another port is another origin.
    expect((await h.app.inject({ method: 'GET', url: '/login', headers: { host: 'brain.example.com:8443' } })).statusCode).toBe(421);
  });

  it('refuses Host spellings that are not a plain host and port', async () => {
    for (const host of ['owner@localhost', 'localhost/x', 'localhost.', '127.0.0.1.nip.io', 'localhost:3000 ', '0.0.0.0:3000']) {
      expect((await h.app.inject({ method: 'GET', url: '/login', headers: { host } })).statusCode, host).toBe(421);
    }
  });

  it('leaves the endpoints that services call to their own authentication (signatures, bearer tokens)', async () => {
    const host = { host: ATTACKER };
    expect((await h.app.inject({ method: 'GET', url: '/healthz', headers: host })).statusCode).toBe(200);
    const webhook = await h.app.inject({ method: 'POST', url: '/stripe/webhook', headers: { ...host, 'content-type': 'application/json', 'stripe-signature': 't=1,v1=bad' }, payload: '{}' });
    expect(webhook.statusCode).toBe(400);
    const interactions = await h.app.inject({ method: 'POST', url: '/interactions', headers: { ...host, 'content-type': 'application/json' }, payload: '{}' });
    expect(interactions.statusCode).not.toBe(421);
  });
});
