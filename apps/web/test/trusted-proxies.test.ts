import { afterEach, expect, it } from 'vitest';
import { describeDb } from '@brain/db/testing';
import { CookieJar, hidden, startHarness, type Harness } from './onboarding-harness.ts';

const RENDER_PROXY = '10.1.2.3';

describeDb('which proxies name the client (BRAIN_TRUST_PROXY), as the per-IP limits see it', (suite) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** POST /login as a browser behind the proxy: the proxy appends the real client, the client wrote the rest. */
  async function postLogins(harness: Harness, count: number, forwardedFor: (i: number) => string): Promise<number[]> {
    const jar = new CookieJar();
    const form = await harness.app.inject({ method: 'GET', url: '/login', remoteAddress: RENDER_PROXY });
    jar.take(form.headers['set-cookie']);
    const csrf = hidden(form.body, 'csrf');
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await harness.app.inject({
        method: 'POST',
        url: '/login',
        remoteAddress: RENDER_PROXY,
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor(i) },
        payload: new URLSearchParams({ email: `someone${i}@example.com`, csrf }).toString(),
      });
      statuses.push(res.statusCode);
    }
    await harness.drain();
    return statuses;
  }

  it('with one hop (Render), a rotating forged leftmost X-Forwarded-For still meets the limit of 10', async () => {
    h = await startHarness(suite.db, { BRAIN_TRUST_PROXY: '1' });
    const statuses = await postLogins(h, 12, (i) => `198.51.100.${i + 1}, 203.0.113.7`);
    expect(statuses).toEqual([...Array(10).fill(303), 429, 429]);
    // The hop it trusts is what it reads: another real client behind the same proxy has its own allowance.
    expect(await postLogins(h, 1, () => '198.51.100.1, 203.0.113.8')).toEqual([303]);
  });

  it('by default believes no header at all: the socket’s peer is the client', async () => {
    h = await startHarness(suite.db, { BRAIN_TRUST_PROXY: '' });
    const statuses = await postLogins(h, 12, (i) => `198.51.100.${i + 1}, 203.0.113.${i + 1}`);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });

  it('with a CIDR list, believes only the listed proxies', async () => {
    h = await startHarness(suite.db, { BRAIN_TRUST_PROXY: '10.0.0.0/8' });
    // Trusted proxy, then an untrusted hop: the client is the rightmost untrusted address.
    const statuses = await postLogins(h, 12, (i) => `198.51.100.${i + 1}, 203.0.113.9`);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });
});
