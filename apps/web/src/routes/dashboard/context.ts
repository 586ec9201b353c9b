import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Accounts, DashboardSession } from '@brain/accounts';
import type { BillingService } from '@brain/billing';
import type { BrainConfig } from '@brain/config';
import type { Database } from '@brain/db';
import type { BrowserSession } from '../../security/browser-session.ts';
import type { DashboardAuth } from '../../security/dashboard-auth.ts';

/** What every dashboard route gets. */
export interface DashboardContext {
  config: BrainConfig;
  db: Database;
  accounts: Accounts;
  billing: BillingService;
  browser: BrowserSession;
  auth: DashboardAuth;
  /** True when magic links go to the dev outbox (the login page says where to look). */
  devOutbox: boolean;
}

/** A signed-in page: the session, the workspace's name, and CSRF tokens for its forms. */
export interface SignedIn {
  session: DashboardSession;
  workspaceName: string;
  csrf: (form: string) => string;
}

type AuthedHandler = (request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) => Promise<unknown>;

/**
 * Wraps a dashboard handler: without a live session (none, forged, expired, idle, or no longer
 * the owner's) nothing runs and the browser goes to the login page, its cookie cleared.
 */
export function signedIn(ctx: DashboardContext, handler: AuthedHandler) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const check = await ctx.auth.session(request);
    if (!check.ok) {
      if (check.reason !== 'none') {
        ctx.auth.clear(reply);
        request.log.info({ reason: check.reason }, 'dashboard session refused');
      }
      return reply.header('cache-control', 'no-store').redirect(`/login${check.reason === 'none' ? '' : '?ended=1'}`, 303);
    }
    const { session } = check;
    return handler(request, reply, {
      session,
      workspaceName: session.workspaceName || 'Your server',
      csrf: (form) => ctx.auth.csrf(session, form),
    });
  };
}
