import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDb } from '@brain/db/testing';
import { claimedWorkspace } from './dashboard-harness.ts';
import { CookieJar, hidden, startHarness, type Harness } from './onboarding-harness.ts';

describeDb('dashboard login when someone else keeps asking for the owner’s link', (suite) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(suite.db);
    await claimedWorkspace(suite.db, 'locked', 'owner@example.com');
  });
  afterAll(() => h.close());

  /** POST /login from one address, as its browser does (form, cookie, CSRF token). */
  async function askForLink(ip: string): Promise<number> {
    const jar = new CookieJar();
    const form = await h.app.inject({ method: 'GET', url: '/login', remoteAddress: ip });
    jar.take(form.headers['set-cookie']);
    const res = await h.app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress: ip,
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: 'owner@example.com', csrf: hidden(form.body, 'csrf') }).toString(),
    });
    await h.drain();
    return res.statusCode;
  }
  const links = () => h.outbox.entries().filter((e) => e.to === 'owner@example.com' && e.purpose === 'login').length;

  it('still delivers the owner’s own request after an attacker spent the address’s allowance', async () => {
    for (let i = 0; i < 6; i++) expect(await askForLink('203.0.113.66')).toBe(303);
    // The attacker's own requests are throttled silently past three…
    expect(links()).toBe(3);
    // …a second address of theirs spends no shared per-workspace count either…
    for (let i = 0; i < 3; i++) expect(await askForLink('203.0.113.67')).toBe(303);
    expect(links()).toBe(6);
    // …and the owner, from their own address, gets a link that logs in.
    expect(await askForLink('198.51.100.5')).toBe(303);
    expect(links()).toBe(7);
    const newest = h.outbox.entries()[0];
    expect(newest?.url).toMatch(/^https:\/\/brain\.example\.com\/login\/confirm\?token=/);
    const confirm = await h.app.inject({ method: 'GET', url: new URL(newest?.url ?? '').pathname + new URL(newest?.url ?? '').search });
    expect(confirm.statusCode).toBe(200);
  });
});
