import type { FastifyPluginAsync } from 'fastify';
import { isAppError } from '@brain/errors';
import { confirmLogin, loginFailure, loginForm, loginSent } from '../../pages/dashboard/login-pages.ts';
import { sendPage } from '../../pages/send-page.ts';
import { formOf, queryOf } from '../form-body.ts';
import { signedIn, type DashboardContext } from './context.ts';

/**
 * Login by magic link to the claimed address: GET /login asks for it (same answer for every
 * address); the link's GET /login/confirm only shows a button (mail scanners open links), and
 * POST /login/confirm redeems it and starts a session. Before a session exists, forms are bound
 * to the browser (BrowserSession's CSRF token); POST /dashboard/logout ends the session.
 */
export const loginRoutes: FastifyPluginAsync<{ ctx: DashboardContext }> = async (app, { ctx }) => {
  const { browser, accounts, auth } = ctx;

  app.get('/login', async (request, reply) => {
    const csrf = browser.csrfToken(browser.browserId(request, reply), 'login');
    return sendPage(reply, 200, 'Log in', loginForm({ csrf, ended: queryOf(request).ended === '1' }));
  });

  app.post('/login', async (request, reply) => {
    const form = formOf(request);
    const browserId = browser.checkCsrf(request, 'login', form.csrf);
    try {
      await accounts.requestLoginLinks({ email: form.email, ip: request.ip });
    } catch (error) {
      if (!isAppError(error, 'EMAIL_INVALID')) throw error;
      return sendPage(reply, 400, 'Log in', loginForm({ csrf: browser.csrfToken(browserId, 'login'), error: error.toUserString(), email: form.email }));
    }
    return reply.redirect('/login/sent', 303);
  });

  app.get('/login/sent', async (_request, reply) => sendPage(reply, 200, 'Check your inbox', loginSent(ctx.devOutbox)));

  app.get('/login/confirm', async (request, reply) => {
    const query = queryOf(request);
    const view = await accounts.describeLoginLink(query.token);
    if (view.token.state !== 'valid' || !view.workspace || !view.token.email) {
      const failure = loginFailure(view.token.state);
      return sendPage(reply, failure.status, failure.title, failure.body);
    }
    const csrf = browser.csrfToken(browser.browserId(request, reply), 'login-confirm');
    return sendPage(
      reply,
      200,
      'Log in',
      confirmLogin({ workspace: view.workspace, email: view.token.email, token: query.token ?? '', tokenHash: query.token_hash ?? '', type: query.type ?? '', csrf }),
    );
  });

  app.post('/login/confirm', async (request, reply) => {
    const form = formOf(request);
    browser.checkCsrf(request, 'login-confirm', form.csrf);
    const result = await accounts.redeemLogin({ token: form.token, tokenHash: form.token_hash || undefined, type: form.type || undefined, ip: request.ip });
    if (!result.ok) {
      const failure = loginFailure(result.reason);
      return sendPage(reply, failure.status, failure.title, failure.body);
    }
    // A session this browser already had (perhaps of another server) ends: one cookie, one session.
    const previous = auth.token(request);
    if (previous) await accounts.endSession(previous);
    const { token } = await accounts.startSession({ workspaceId: result.workspaceId, email: result.email });
    auth.begin(reply, token);
    request.log.info({ workspaceId: result.workspaceId }, 'dashboard session started');
    return reply.header('cache-control', 'no-store').redirect('/dashboard', 303);
  });

  app.post(
    '/dashboard/logout',
    signedIn(ctx, async (request, reply, { session }) => {
      auth.checkCsrf(session, 'logout', formOf(request).csrf);
      const token = auth.token(request);
      if (token) await accounts.endSession(token);
      auth.clear(reply);
      return reply.redirect('/login', 303);
    }),
  );
};
