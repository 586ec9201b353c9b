import { afterAll, beforeAll, expect, it } from 'vitest';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { CookieJar, hidden, startHarness, type Harness } from './onboarding-harness.ts';

describeDb('install, claim and billing pages', (suite) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(suite.db);
  });
  afterAll(() => h.close());

  /** A browser session through the app: cookies kept, forms posted as a browser would. */
  function browser() {
    const jar = new CookieJar();
    const request = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>, headers: Record<string, string> = {}) => {
      const res = await h.app.inject({
        method,
        url,
        headers: { cookie: jar.header(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
        ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
      });
      jar.take(res.headers['set-cookie']);
      return res;
    };
    return { jar, get: (url: string, headers?: Record<string, string>) => request('GET', url, undefined, headers), post: request.bind(null, 'POST') };
  }

  async function install(b: ReturnType<typeof browser>, guildName = 'Readers') {
    h.discord.guild = { id: String(900_000_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e9))), name: guildName };
    const start = await b.get('/install');
    expect(start.statusCode).toBe(302);
    const back = new URL(h.discord.authorize(start.headers.location ?? ''));
    const callback = await b.get(back.pathname + back.search);
    expect(callback.statusCode).toBe(303);
    const workspaceId = new URL(callback.headers.location ?? '', 'http://x').searchParams.get('workspace') ?? '';
    return { workspaceId, guildId: h.discord.guild.id };
  }

  it('sends /install to Discord with a state held in an HttpOnly, SameSite=Lax, Secure cookie', async () => {
    const b = browser();
    const res = await b.get('/install');
    const location = new URL(res.headers.location ?? '');
    expect(location.origin).toBe(h.discord.url);
    expect(location.searchParams.get('redirect_uri')).toBe('https://brain.example.com/install/callback');
    const state = location.searchParams.get('state') ?? '';
    expect(Buffer.from(state, 'base64url')).toHaveLength(32);
    const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('brain_install_state='));
    expect(cookie).toBe(`brain_install_state=${state}; Path=/install; Max-Age=600; HttpOnly; SameSite=Lax; Secure`);
  });

  it('refuses a callback whose state is not this browser\'s, creating nothing', async () => {
    const b = browser();
    const start = await b.get('/install');
    const back = new URL(h.discord.authorize(start.headers.location ?? ''));
    const forged = browser();
    const res = await forged.get(back.pathname + back.search);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('This install could not be confirmed');
    back.searchParams.set('state', 'x'.repeat(43));
    expect((await b.get(back.pathname + back.search)).statusCode).toBe(400);
    const count = await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from workspaces where guild_id = $1', [h.discord.guild.id]));
    expect(count[0]?.n).toBe(0);
    expect(h.discord.server.requests.filter((r) => r.path.endsWith('/oauth2/token'))).toHaveLength(0);
  });

  it('goes from install to a claimed workspace: the link comes from PUBLIC_URL, its GET consumes nothing, its POST claims once', async () => {
    const b = browser();
    const { workspaceId } = await install(b, 'Readers <script>alert(1)</script>');
    const claimPage = await b.get(`/claim?workspace=${workspaceId}`);
    expect(claimPage.statusCode).toBe(200);
    expect(claimPage.body).toContain('Readers &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(claimPage.body).not.toContain('<script>');
    expect(claimPage.headers['content-security-policy']).toContain("default-src 'none'");

    // Another browser cannot see or post the claim form of this workspace.
    const other = browser();
    expect((await other.get(`/claim?workspace=${workspaceId}`)).statusCode).toBe(403);
    const csrf = hidden(claimPage.body, 'csrf');
    expect((await b.post('/claim', { workspace: workspaceId, email: 'ana@example.com', csrf: 'forged' })).statusCode).toBe(403);

    // A foreign Host is refused outright (DNS rebinding); the link never comes from a Host header anyway.
    expect((await b.post('/claim', { workspace: workspaceId, email: 'ana@example.com', csrf }, { host: 'evil.test' })).statusCode).toBe(421);
    const sent = await b.post('/claim', { workspace: workspaceId, email: 'ana@example.com', csrf }, { host: 'localhost:3000' });
    expect(sent.statusCode).toBe(303);
    await h.drain();
    const link = new URL(h.outbox.entries()[0]?.url ?? '');
    expect(link.origin).toBe('https://brain.example.com');

    const mail = browser(); // the mail app: another browser, as often
    const confirm = await mail.get(link.pathname + link.search);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.headers['referrer-policy']).toBe('no-referrer');
    expect(confirm.headers['cache-control']).toBe('no-store');
    expect(confirm.body).toContain('ana@example.com');
    expect((await mail.get(link.pathname + link.search)).statusCode).toBe(200);

    const form = { token: hidden(confirm.body, 'token'), token_hash: '', type: '', csrf: hidden(confirm.body, 'csrf') };
    expect((await mail.post('/claim/confirm', { ...form, csrf: 'nope' })).statusCode).toBe(403);
    const done = await mail.post('/claim/confirm', form);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('is yours');
    expect(done.body).toContain('action="/billing/checkout"');
    const replay = await mail.post('/claim/confirm', form);
    expect(replay.statusCode).toBe(409);
    expect(replay.body).toContain('This link has already been used');

    // The installer's browser now sees the claim as done.
    expect((await b.get(`/claim?workspace=${workspaceId}`)).body).toContain('is already claimed');
  });

  it('re-renders the form with a message for an address that is not one', async () => {
    const b = browser();
    const { workspaceId } = await install(b);
    const page = await b.get(`/claim?workspace=${workspaceId}`);
    const res = await b.post('/claim', { workspace: workspaceId, email: 'not-an-email', csrf: hidden(page.body, 'csrf') });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('That does not look like an email address.');
    expect(res.body).toContain('value="not-an-email"');
  });

  it('checks out through a signed link and activates on the webhook, verified on the raw body', async () => {
    const b = browser();
    const { workspaceId } = await install(b);
    await withService(suite.db, (tx) => tx.query(`update workspaces set claim_email = 'pay@example.com', claimed_at = now() where id = $1`, [workspaceId]));
    const checkoutUrl = new URL(`https://brain.example.com/billing/checkout?workspace=${workspaceId}&sig=bad`);
    expect((await b.get(checkoutUrl.pathname + checkoutUrl.search)).statusCode).toBe(403);

    const claimed = await b.get(`/claim?workspace=${workspaceId}`);
    const sig = hidden(claimed.body, 'sig');
    const page = await b.get(`/billing/checkout?workspace=${workspaceId}&sig=${encodeURIComponent(sig)}`);
    expect(page.statusCode).toBe(200);
    const go = await b.post('/billing/checkout', { workspace: workspaceId, sig, csrf: hidden(page.body, 'csrf') });
    expect(go.statusCode).toBe(303);
    const sessionId = (go.headers.location ?? '').split('/').pop() ?? '';
    expect(go.headers.location).toBe(`${h.stripe.url}/pay/${sessionId}`);

    const success = `/billing/success?workspace=${workspaceId}&sig=${encodeURIComponent(sig)}&session_id=${sessionId}`;
    const waiting = await b.get(success);
    expect(waiting.body).toContain('Waiting for Stripe');
    expect(waiting.body).toContain('http-equiv="refresh"');

    const { events } = h.stripe.completeCheckout(sessionId);
    const tampered = h.stripe.sign(events[0] ?? '');
    const bad = await h.app.inject({ method: 'POST', url: '/stripe/webhook', headers: tampered.headers, payload: tampered.body.replace('"paid"', '"unpaid"') });
    expect(bad.statusCode).toBe(400);
    for (const event of events) {
      const signed = h.stripe.sign(event);
      const res = await h.app.inject({ method: 'POST', url: '/stripe/webhook', headers: signed.headers, payload: signed.body });
      expect(res.statusCode).toBe(200);
    }
    expect((await b.get(success)).body).toContain('has a plan');
    const cancel = await b.get(`/billing/cancel?workspace=${workspaceId}&sig=${encodeURIComponent(sig)}`);
    expect(cancel.body).toContain('has a plan');
  });

  it('shows the dev outbox only to a direct loopback caller', async () => {
    const local = await h.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    expect(local.body).toContain('Dev outbox');
    const proxied = await h.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.statusCode).toBe(403);
    const remote = await h.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
  });

  it('keeps the rest of the app on the normal JSON parser', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/nope', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
  });
});

describeDb('install without Discord configured', (suite) => {
  it('explains what to configure instead of failing', async () => {
    const h = await startHarness(suite.db, { DISCORD_APPLICATION_ID: '', DISCORD_CLIENT_SECRET: '' });
    const res = await h.app.inject({ method: 'GET', url: '/install' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('DISCORD_APPLICATION_ID');
    expect(res.body).toContain('https://brain.example.com/install/callback');
    await h.close();
  });
});
