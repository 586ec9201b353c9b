import { expect } from 'vitest';
import { withService, type Database } from '@brain/db';
import { CookieJar, hidden, type Harness } from './onboarding-harness.ts';

/** A claimed workspace, as the claim flow leaves it. */
export async function claimedWorkspace(db: Database, slug: string, email: string): Promise<string> {
  const [row] = await withService(db, (tx) =>
    tx.query<{ id: string }>(`insert into workspaces (slug, name, claim_email, claimed_at) values ($1, $1, $2, now()) returning id::text`, [slug, email]),
  );
  return (row as { id: string }).id;
}

export type Browser = ReturnType<typeof browserFor>;

/** A browser through app.inject: cookies kept, forms posted as a browser would. */
export function browserFor(h: Harness) {
  const jar = new CookieJar();
  const request = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
    const res = await h.app.inject({
      method,
      url,
      headers: { cookie: jar.header(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    jar.take(res.headers['set-cookie']);
    return res;
  };
  return { jar, get: (url: string) => request('GET', url), post: (url: string, form: Record<string, string>) => request('POST', url, form) };
}

/** Logs in as the owner through the login form and the dev outbox link; returns the Set-Cookie of the session. */
export async function logIn(h: Harness, b: Browser, email: string, workspaceName: string): Promise<string> {
  const form = await b.get('/login');
  expect(form.statusCode).toBe(200);
  const sent = await b.post('/login', { email, csrf: hidden(form.body, 'csrf') });
  expect(sent.statusCode).toBe(303);
  expect(sent.headers.location).toBe('/login/sent');
  await h.drain();
  const entry = h.outbox.entries().find((e) => e.purpose === 'login' && e.to === email && e.workspaceName === workspaceName);
  if (!entry) throw new Error(`no login link for ${email} in the outbox`);
  const link = new URL(entry.url);
  expect(link.origin + link.pathname).toBe(`${h.config.publicUrl}/login/confirm`);
  const confirm = await b.get(link.pathname + link.search);
  expect(confirm.statusCode).toBe(200);
  const done = await b.post('/login/confirm', { token: hidden(confirm.body, 'token'), token_hash: '', type: '', csrf: hidden(confirm.body, 'csrf') });
  expect(done.statusCode).toBe(303);
  expect(done.headers.location).toBe('/dashboard');
  const cookie = [done.headers['set-cookie']].flat().find((c) => c?.startsWith('brain_dashboard='));
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

/** The CSRF token of the first POST form whose action starts with `action` (each dashboard form has its own). */
export function csrfOf(body: string, action: string): string {
  const at = body.indexOf(`method="post" action="${action}`);
  if (at < 0) throw new Error(`no form posting to ${action}`);
  const match = /name="csrf" value="([^"]*)"/.exec(body.slice(at));
  if (!match) throw new Error(`no csrf in the form posting to ${action}`);
  return match[1] ?? '';
}
