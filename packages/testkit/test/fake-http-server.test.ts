import { afterAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer } from '../src/index.ts';

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
