import type { FastifyRequest } from 'fastify';
import type { BrainConfig } from '@brain/config';
import type { OnboardingDeps } from '../../deps.ts';
import type { BrowserSession } from '../../security/browser-session.ts';

/** What every onboarding route gets. */
export interface OnboardingContext extends OnboardingDeps {
  config: BrainConfig;
  session: BrowserSession;
}

export { formOf, queryOf, type FormBody } from '../form-body.ts';

const GRANT_COOKIE = 'brain_install_grant';
const GRANT_TTL_SECONDS = 3600;

/**
 * The install grant: proof, for an hour, that this browser added the bot to this workspace.
 * Only that browser sees the claim form, so nobody else can start a claim on a workspace id.
 */
export const installGrant = {
  set(ctx: OnboardingContext, request: FastifyRequest, reply: Parameters<BrowserSession['setCookie']>[0], workspaceId: string): void {
    const browserId = ctx.session.browserId(request, reply);
    const token = ctx.session.issue('install-grant', browserId, [workspaceId], GRANT_TTL_SECONDS);
    ctx.session.setCookie(reply, GRANT_COOKIE, `${workspaceId}~${token}`, '/', GRANT_TTL_SECONDS);
  },
  holds(ctx: OnboardingContext, request: FastifyRequest, workspaceId: unknown): workspaceId is string {
    const [granted, token] = (ctx.session.cookie(request, GRANT_COOKIE) ?? '').split('~');
    return (
      typeof workspaceId === 'string' &&
      granted === workspaceId &&
      ctx.session.check('install-grant', ctx.session.existingBrowserId(request), [workspaceId], token)
    );
  },
};
