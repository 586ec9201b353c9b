import { afterAll, describe, expect, it } from 'vitest';
import { startFakeDiscordHistory, startFakeHttpServer } from '../src/index.ts';

describe('startFakeHttpServer', async () => {
  const fake = await startFakeHttpServer('example');
  afterAll(() => fake.close());

  it('routes by method and path pattern, records requests, and 404s loudly on anything else', async () => {
    fake.on('POST', '/v1/things/:id', (req) => ({ status: 201, body: { got: req.json } }));
    const ok = await fetch(`${fake.url}/v1/things/42`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ got: { a: 1 } });
    const missing = await fetch(`${fake.url}/v1/other`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'example fake has no route for GET /v1/other' });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/things/42', 'GET /v1/other']);
  });
});

describe('a fake that runs as long as brain start (the playground)', () => {
  it('keeps only the latest keepRequests requests, or none, and still answers every one', async () => {
    const some = await startFakeHttpServer('some', { keepRequests: 2 });
    const none = await startFakeHttpServer('none', { keepRequests: 0 });
    try {
      for (const fake of [some, none]) fake.on('GET', '/n/:i', () => ({ body: { ok: true } }));
      for (let i = 0; i < 5; i++) {
        expect((await fetch(`${some.url}/n/${i}`)).status).toBe(200);
        expect((await fetch(`${none.url}/n/${i}`)).status).toBe(200);
      }
      expect(some.requests.map((r) => r.path)).toEqual(['/n/3', '/n/4']);
      expect(none.requests).toEqual([]);
      const history = await startFakeDiscordHistory({ server: none, keepRequests: 0 });
      history.addMessages('100', []);
      expect((await fetch(`${history.apiBase}/v10/channels/100/messages?limit=1`)).status).toBe(200);
      expect(history.requests).toEqual([]);
    } finally {
      await Promise.all([some.close(), none.close()]);
    }
  });
});

