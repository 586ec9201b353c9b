import { afterAll, beforeAll, expect, it } from 'vitest';
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
import { waitUntil } from '@brain/testkit';
import { buildApp, startWebServer, type WebServer } from '../src/index.ts';
import { createGuildWorkspace, slash } from './helpers/discord-harness.ts';

const logger = createLogger({ level: 'silent' });
const config = loadConfig({}, { cwd: process.cwd() });

describeDb('the playground', (suite) => {
  const channel = new PlaygroundChannel();
  const keys = generateDevKeyPair();
  let emulator: DiscordEmulator;
  let web: WebServer;

  beforeAll(async () => {
    emulator = await startDiscordEmulator(channel, logger);
    const [local] = await suite.db.query<{ id: string }>("insert into workspaces (slug) values ('local-pg') returning id");
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
    web = await startWebServer({ config, db: suite.db, logger, discord: surface, playground: { channel, gateway } }, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await web.close();
    await emulator.close();
  });

  /** What the page's own script sends: its viewer cookie, and this server's Origin on a POST. */
  let viewerCookie = '';
  const post = (path: string, body: unknown) =>
    fetch(`${web.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: web.url, cookie: viewerCookie }, body: JSON.stringify(body) });

  it('serves the page, and a typed command goes through /interactions and back as an edited message', async () => {
    const page = await fetch(`${web.url}/playground`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Message #general');
    viewerCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(page.headers.get('set-cookie')).toMatch(/^brain_pg_viewer=[\w-]{32}; Path=\/playground; .*HttpOnly; SameSite=Strict/);
    const sent = await post('/playground/send', { text: '/sources' });
    expect(await sent.json()).toMatchObject({ status: 200, responseType: 5 });
    const mine = async () => ((await (await fetch(`${web.url}/playground/state`, { headers: { cookie: viewerCookie } })).json()) as { messages: { state: string }[] }).messages;
    const last = await waitUntil(
      async () => {
        const newest = (await mine()).at(-1);
        return newest?.state === 'done' && newest;
      },
      { what: "the bot's reply to be done" },
    );
    expect(last).toMatchObject({ author: 'bot', invocation: '/sources', state: 'done', ephemeral: true });
    expect(JSON.stringify(last)).toContain('Nothing saved yet');
  });

  it('explains a mistyped command without sending anything', async () => {
    const res = await post('/playground/send', { text: '/ask' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('/ask needs question');
  });

  it('accepts the dev key for the playground’s server only: it cannot act on a real one', async () => {
    const real = await createGuildWorkspace(suite.db);
    const body = JSON.stringify(slash(real.guildId, 'sources'));
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${web.url}/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': keys.sign(ts, body), 'x-signature-timestamp': ts },
      body,
    });
    expect(res.status).toBe(401);
  });

  it('is not served when it is off', async () => {
    const app = await buildApp({ config, db: suite.db, logger });
    expect((await app.inject({ method: 'GET', url: '/playground' })).statusCode).toBe(404);
    const res = await app.inject({ method: 'POST', url: '/interactions', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe('DISCORD_NOT_CONFIGURED');
    await app.close();
  });
});
