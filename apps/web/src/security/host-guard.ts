import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '@brain/errors';
import { allowedOrigin, expectedHost } from './allowed-origin.ts';

function misdirected(request: FastifyRequest, publicUrl: string): AppError {
  return new AppError({
    code: 'HOST_NOT_ALLOWED',
    message: `Refused ${request.method} ${request.url}: Host ${JSON.stringify(request.headers.host ?? '')} is neither PUBLIC_URL's host nor this machine.`,
    userMessage: `This Company Brain answers only at ${expectedHost(publicUrl)} or on this machine (localhost, 127.0.0.1, [::1]).`,
    nextStep: `Open ${publicUrl} instead; if you reach it at another address on purpose, set PUBLIC_URL to that address.`,
    httpStatus: 421,
  });
}

function crossSite(request: FastifyRequest, expected: string): AppError {
  return new AppError({
    code: 'ORIGIN_NOT_ALLOWED',
    message: `Refused ${request.method} ${request.url}: Origin ${JSON.stringify(request.headers.origin ?? '')} is not ${expected}.`,
    userMessage: 'This request did not come from a page of this server.',
    nextStep: `Reload the page at ${expected} and try again from there.`,
    httpStatus: 403,
  });
}

/**
 * For the scopes a browser uses (the playground, install, claim, login, dashboard, dev outbox):
 * a request whose Host is not PUBLIC_URL's host or this machine is refused (421), so a page on
 * another site that rebinds its name to this machine gets nothing. With `requireOrigin`, a
 * state-changing request must also carry an Origin equal to the one its Host allows: browsers
 * always send one on POST, and another site cannot forge it.
 */
export function useHostGuard(app: FastifyInstance, publicUrl: string, options: { requireOrigin?: boolean } = {}): void {
  app.addHook('onRequest', async (request) => {
    const origin = allowedOrigin(request, publicUrl);
    if (origin === undefined) throw misdirected(request, publicUrl);
    if (!options.requireOrigin || request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    if (request.headers.origin !== origin) throw crossSite(request, origin);
  });
}
