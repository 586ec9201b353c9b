import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@brain/errors';
import { parseCookies, serializeCookie } from '../../security/cookies.ts';

const VIEWER_COOKIE = 'brain_pg_viewer';
const VIEWER_ID = /^[A-Za-z0-9_-]{32}$/;

/**
 * Who is looking at the playground: a random id in an HttpOnly, SameSite=Strict cookie scoped
 * to /playground, set when the page is served. Ephemeral replies are delivered to that id only,
 * as Discord delivers them to the user who asked; tabs of one browser are one viewer.
 */
export function viewerOf(request: FastifyRequest): string | undefined {
  const id = parseCookies(request.headers.cookie)[VIEWER_COOKIE];
  return id && VIEWER_ID.test(id) ? id : undefined;
}

/** The viewer's id, set now if the browser has none. */
export function ensureViewer(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = viewerOf(request);
  if (existing) return existing;
  const id = randomBytes(24).toString('base64url');
  void reply.header('set-cookie', serializeCookie(VIEWER_COOKIE, id, { path: '/playground', maxAgeSeconds: 30 * 86400, secure, sameSite: 'Strict' }));
  return id;
}

/** For the requests that act: without a viewer, an ephemeral reply would have nobody to go to. */
export function requireViewer(request: FastifyRequest): string {
  const viewer = viewerOf(request);
  if (viewer) return viewer;
  throw new AppError({
    code: 'PLAYGROUND_VIEWER_MISSING',
    message: 'A playground request came without its viewer cookie.',
    userMessage: 'This browser has no playground session.',
    nextStep: 'Reload the playground page, then try again.',
    httpStatus: 403,
  });
}
