import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_SECONDS, type Accounts, type DashboardSession, type SessionRefusal, type Signer } from '@brain/accounts';
import { AppError } from '@brain/errors';
import type { BrowserSession } from './browser-session.ts';

/** The session cookie: sent only to the dashboard's own paths. */
export const DASHBOARD_COOKIE = 'brain_dashboard';
export const DASHBOARD_PATH = '/dashboard';

/**
 * The operator's dashboard session: the cookie (HttpOnly, SameSite=Lax, Secure when PUBLIC_URL
 * is https) carries a random token whose hash is the session row, checked against the database
 * on every request (so logout, expiry and an owner change end it at once). Every POST carries a
 * token signed over the session's key and the form's name: another site can neither read it nor
 * forge it, and it dies with the session.
 */
export class DashboardAuth {
  readonly #accounts: Accounts;
  readonly #signer: Signer;
  readonly #browser: BrowserSession;

  constructor(accounts: Accounts, signer: Signer, browser: BrowserSession) {
    this.#accounts = accounts;
    this.#signer = signer;
    this.#browser = browser;
  }

  token(request: FastifyRequest): string | undefined {
    return this.#browser.cookie(request, DASHBOARD_COOKIE);
  }

  async session(request: FastifyRequest): Promise<{ ok: true; session: DashboardSession } | { ok: false; reason: SessionRefusal | 'none' }> {
    const token = this.token(request);
    if (!token) return { ok: false, reason: 'none' };
    return this.#accounts.checkSession(token);
  }

  begin(reply: FastifyReply, token: string): void {
    this.#browser.setCookie(reply, DASHBOARD_COOKIE, token, DASHBOARD_PATH, SESSION_ABSOLUTE_SECONDS);
  }

  clear(reply: FastifyReply): void {
    this.#browser.clearCookie(reply, DASHBOARD_COOKIE, DASHBOARD_PATH);
  }

  csrf(session: DashboardSession, form: string): string {
    return this.#signer.sign('dashboard-csrf', [session.key, form]);
  }

  /** Throws CSRF_REFUSED (403) unless the token was made for this session and this form. */
  checkCsrf(session: DashboardSession, form: string, token: unknown): void {
    if (this.#signer.verify('dashboard-csrf', [session.key, form], token)) return;
    throw new AppError({
      code: 'CSRF_REFUSED',
      message: `The dashboard ${form} form token does not match this session.`,
      userMessage: 'This form has expired or was opened in another session.',
      nextStep: 'Go back, reload the page and submit it again.',
      httpStatus: 403,
    });
  }
}
