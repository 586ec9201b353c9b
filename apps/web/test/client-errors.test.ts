import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '@brain/db/testing';
import { generateDevKeyPair, PlaygroundChannel, PlaygroundGateway, slashCommands } from '@brain/discord';
import { createLogger } from '@brain/observability';
import { buildApp, type WebApp } from '../src/index.ts';
import { startHarness, type Harness } from './onboarding-harness.ts';

describeDb('fastify’s own refusals answer their own status and say what was wrong', (suite) => {
  let h: Harness;
  let api: WebApp;
  beforeAll(async () => {
    h = await startHarness(suite.db);
    const channel = new PlaygroundChannel();
    const gateway = new PlaygroundGateway(channel, generateDevKeyPair(), Object.values(slashCommands).map((c) => c.definition));
    api = await buildApp({ config: h.config, db: suite.db, logger: createLogger({ level: 'silent' }), playground: { channel, gateway } });
  });
  afterAll(async () => {
    await api.close();
    await h.close();
  });

  const send = (contentType: string, payload: string) =>
    api.inject({ method: 'POST', url: '/playground/send', headers: { host: 'localhost:3000', origin: 'http://localhost:3000', 'content-type': contentType }, payload });

  it('a 415 says 415, in JSON', async () => {
    const res = await send('text/xml', '<text>hi</text>');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringMatching(/^415 Unsupported Media Type\. Send the body with a content-type/) });
  });

  it('malformed JSON is a 400 and a body over the limit a 413, neither an INTERNAL', async () => {
    const bad = await send('application/json', '{"text": ');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining('400 Bad Request') });
    const big = await send('application/json', JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 10) }));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('Send a smaller body') });
    for (const res of [bad, big]) expect(res.body).not.toContain('Something went wrong');
  });

  it('on the pages too: an oversized form is a 413 page that says so', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/claim', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `email=${'x'.repeat(20_000)}` });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('413 Payload Too Large');
    expect(res.body).toContain('Send a smaller body');
    const json = await h.app.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'application/json' }, payload: '{bad' });
    expect(json.statusCode).toBe(400);
    expect(json.body).toContain('400 Bad Request');
  });
});
