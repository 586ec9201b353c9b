import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '@brain/config';
import type { Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { createDiscordApi, createDiscordSurface, generateDevKeyPair, type DiscordSurface } from '@brain/discord';
import { createLogger, createMetrics } from '@brain/observability';
import { freeLoopbackPort, startFakeDiscord, waitUntil, type FakeDiscord } from '@brain/testkit';
import { buildApp, startWebServer, type WebServer } from '../src/index.ts';
import { createReadiness } from '../src/readiness.ts';

const config = loadConfig({}, { cwd: process.cwd() });
const logger = createLogger({ level: 'silent' });

describeDb('GET /readyz and the warm-up', (suite) => {
  let discord: FakeDiscord;
  let surface: DiscordSurface;

  beforeAll(async () => {
    discord = await startFakeDiscord();
    surface = createDiscordSurface({
      db: suite.db,
      logger,
      ask: async () => Promise.reject(new Error('no ask in this test')),
      checkEntitlement: async () => ({ allowed: true }),
      downloadAttachment: async () => Promise.reject(new Error('no downloads in this test')),
      links: { install: () => 'https://brain.example.com/install', claim: (g) => `https://brain.example.com/claim?guild=${g}` },
      discord: { publicKey: generateDevKeyPair().publicKeyHex, api: createDiscordApi({ apiBase: discord.apiBase, retries: 0, timeoutMs: 5000 }) },
    }) as DiscordSurface;
  });
  afterAll(async () => {
    await surface.close(1_000);
    await discord.close();
  });

  it('says 503 starting while the warm-up runs, 200 once it is done, and the warm-up is not counted as traffic', async () => {
    // The real database, held at the warm-up's first statement so the test can look in between.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let warmUpQueries = 0;
    const db: Database = {
      ...suite.db,
      kind: suite.db.kind,
      display: suite.db.display,
      query: async (text, params) => {
        // The warm-up's statements are the first ones; /healthz's later one passes.
        if (text === 'select 1' && warmUpQueries < 4) {
          warmUpQueries += 1;
          await held;
        }
        return suite.db.query(text, params);
      },
    };
    const metrics = createMetrics();
    const port = await freeLoopbackPort();
    let started: WebServer | undefined;
    const starting = startWebServer({ config, db, logger, metrics, discord: surface }, { host: '127.0.0.1', port }).then((web) => (started = web));
    try {
      await waitUntil(() => warmUpQueries === 4);
      // Listening already (a liveness check sees the process), not ready: nothing should be routed here.
      const cold = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(cold.status).toBe(503);
      expect(await cold.json()).toEqual({ status: 'starting', reason: 'warming up' });
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(started).toBeUndefined();
      // Several pooled connections opened at once, before the first real request needs one.
      expect(warmUpQueries).toBe(4);
      release();
      const web = await starting;
      const ready = await fetch(`${web.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', mode: 'embedded' });
      const text = await metrics.render();
      expect(text).not.toMatch(/brain_interactions_total\{outcome="invalid_signature"\}/);
      await web.close(1_000);
      expect(web.readiness.state).toBe('draining');
    } finally {
      release();
      await (await starting).app.close().catch(() => undefined);
    }
  });

  it('answers 503 with the state while starting or draining, without touching the database', async () => {
    for (const state of ['starting', 'draining'] as const) {
      const app = await buildApp({ config, db: suite.db, logger }, { readiness: createReadiness(state) });
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: state, reason: state === 'starting' ? 'warming up' : 'shutting down' });
      await app.close();
    }
  });

  it('keeps the warm-up out of the request log, and logs the first real request', async () => {
    const lines: string[] = [];
    const capture = { write: (line: string) => void lines.push(line) };
    const logged = createLogger({ level: 'info', destination: capture });
    const web = await startWebServer({ config, db: suite.db, logger: logged, discord: surface }, { host: '127.0.0.1', port: await freeLoopbackPort() });
    try {
      const incoming = () => lines.filter((l) => l.includes('"incoming request"')).length;
      expect(incoming()).toBe(0);
      // The same request the warm-up makes, without its header: someone's, so in the log.
      const unsigned = await fetch(`${web.url}/interactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature-ed25519': '0'.repeat(128), 'x-signature-timestamp': String(Math.floor(Date.now() / 1000)) },
        body: JSON.stringify({ id: '0', application_id: '0', type: 1, token: 'x', version: 1 }),
      });
      expect(unsigned.status).toBe(401);
      await waitUntil(() => incoming() === 1, { what: 'the real request in the log' });
    } finally {
      await web.close(1_000);
    }
  });
});
