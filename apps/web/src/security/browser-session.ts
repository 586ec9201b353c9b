import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Signer } from '@brain/accounts';
import { AppError } from '@brain/errors';
import { parseCookies, serializeCookie } from './cookies.ts';

const BROWSER_COOKIE = 'brain_bid';
const BROWSER_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * Ties forms and flows to one browser. A random browser id lives in an HttpOnly, SameSite=Lax
 * cookie (Secure when PUBLIC_URL is https); every POST form carries a token signed over that id
 * and the form's name, so another site cannot post for the user (it can neither read the
 * cookie nor forge the signature), and a token copied from one browser fails in another.
 */
export class BrowserSession {
  readonly #signer: Signer;
  readonly secure: boolean;

  constructor(signer: Signer, publicUrl: string) {
    this.#signer = signer;
    this.secure = publicUrl.startsWith('https://');
  }

  cookie(request: FastifyRequest, name: string): string | undefined {
    return parseCookies(request.headers.cookie)[name];
  }

  setCookie(reply: FastifyReply, name: string, value: string, path: string, maxAgeSeconds: number): void {
    void reply.header('set-cookie', serializeCookie(name, value, { path, maxAgeSeconds, secure: this.secure }));
  }

  clearCookie(reply: FastifyReply, name: string, path: string): void {
    this.setCookie(reply, name, '', path, 0);
  }

  /** The browser's id, set now if it has none. */
  browserId(request: FastifyRequest, reply: FastifyReply): string {
    const existing = this.existingBrowserId(request);
    if (existing) return existing;
    const id = randomBytes(16).toString('base64url');
    this.setCookie(reply, BROWSER_COOKIE, id, '/', 30 * 86400);
    // Later reads in this request see it too.
    request.headers.cookie = `${request.headers.cookie ? `${request.headers.cookie}; ` : ''}${BROWSER_COOKIE}=${id}`;
    return id;
  }

  existingBrowserId(request: FastifyRequest): string | undefined {
    const id = this.cookie(request, BROWSER_COOKIE);
    return id && BROWSER_ID.test(id) ? id : undefined;
  }

  csrfToken(browserId: string, form: string): string {
    return this.#signer.sign('csrf', [browserId, form]);
  }

  /** Throws CSRF_REFUSED (403) unless the posted token was made for this browser and this form. */
  checkCsrf(request: FastifyRequest, form: string, token: unknown): string {
    const browserId = this.existingBrowserId(request);
    if (!browserId) {
      throw new AppError({
        code: 'COOKIES_MISSING',
        message: 'A form was posted without the browser cookie.',
        userMessage: 'Your browser did not send back our cookie, so we cannot tell this form came from this page.',
        nextStep: 'Allow cookies for this site, then open the page again and resubmit.',
        httpStatus: 403,
      });
    }
    if (!this.#signer.verify('csrf', [browserId, form], token)) {
      throw new AppError({
        code: 'CSRF_REFUSED',
        message: `The ${form} form token does not match this browser.`,
        userMessage: 'This form has expired or was opened in another browser.',
        nextStep: 'Go back, reload the page and submit it again.',
        httpStatus: 403,
      });
    }
    return browserId;
  }

  /** A value signed for this browser that stops working after ttl (install grant). */
  issue(purpose: string, browserId: string, fields: string[], ttlSeconds: number): string {
    return this.#signer.issue(purpose, [browserId, ...fields], ttlSeconds);
  }

  check(purpose: string, browserId: string | undefined, fields: string[], token: unknown): boolean {
    return browserId !== undefined && this.#signer.check(purpose, [browserId, ...fields], token);
  }
}
