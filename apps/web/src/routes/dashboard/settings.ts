import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { createMcpToken, listMcpTokens, revokeMcpToken } from '@brain/accounts';
import { isAppError } from '@brain/errors';
import { loadSettings, saveSettings } from '@brain/insights';
import { sendDashboardPage, type DashboardView } from '../../pages/dashboard/layout.ts';
import { settingsPage, type SettingsView } from '../../pages/dashboard/settings-page.ts';
import { formOf, paramOf, queryOf } from '../form-body.ts';
import { signedIn, type DashboardContext, type SignedIn } from './context.ts';

type Extras = Pick<SettingsView, 'entered' | 'createdToken' | 'tokenError'> & { proposed?: { matchCount: unknown; minSimilarity: unknown }; notice?: DashboardView['notice'] };

const NOTICES: Record<string, DashboardView['notice']> = {
  saved: { text: 'Saved: the next questions use these settings.' },
  revoked: { text: 'Token revoked: the next request made with it is refused.' },
};

/**
 * GET /dashboard/settings (with ?match_count&min_similarity: a preview of the change over recent
 * questions), POST to save; MCP tokens created (shown once) and revoked; the billing portal.
 */
export const settingsRoutes: FastifyPluginAsync<{ ctx: DashboardContext }> = async (app, { ctx }) => {
  const render = async (reply: FastifyReply, signed: SignedIn, status: number, extras: Extras = {}) => {
    const workspaceId = signed.session.workspaceId;
    const [data, tokens, plan] = await Promise.all([
      loadSettings(ctx.db, workspaceId, extras.proposed),
      listMcpTokens(ctx.db, workspaceId),
      ctx.billing.enabled ? ctx.billing.plan(workspaceId) : Promise.resolve(undefined),
    ]);
    const view: SettingsView = {
      data,
      entered: extras.entered,
      tokens,
      createdToken: extras.createdToken,
      tokenError: extras.tokenError,
      plan,
      billingEnabled: ctx.billing.enabled,
      checkoutUrl: ctx.billing.links.checkout(workspaceId),
      csrf: signed.csrf,
    };
    return sendDashboardPage(reply, status, { title: 'Settings', section: 'settings', signedIn: signed, notice: extras.notice, body: settingsPage(view) });
  };

  app.get(
    '/dashboard/settings',
    signedIn(ctx, async (request, reply, signed) => {
      const query = queryOf(request);
      const previewing = query.match_count !== undefined || query.min_similarity !== undefined;
      const entered = previewing ? { matchCount: query.match_count ?? '', minSimilarity: query.min_similarity ?? '' } : undefined;
      return render(reply, signed, 200, {
        notice: NOTICES[query.done ?? ''],
        ...(entered ? { entered, proposed: { matchCount: entered.matchCount, minSimilarity: entered.minSimilarity } } : {}),
      });
    }),
  );

  app.post(
    '/dashboard/settings',
    signedIn(ctx, async (request, reply, signed) => {
      const form = formOf(request);
      ctx.auth.checkCsrf(signed.session, 'settings', form.csrf);
      const result = await saveSettings(ctx.db, signed.session.workspaceId, { matchCount: form.match_count, minSimilarity: form.min_similarity });
      if (!result.ok) {
        const entered = { matchCount: form.match_count ?? '', minSimilarity: form.min_similarity ?? '' };
        return render(reply, signed, 400, { entered, proposed: entered, notice: { text: 'Nothing was saved: fix the values below.', bad: true } });
      }
      request.log.info({ workspaceId: signed.session.workspaceId, before: result.before, after: result.after }, 'retrieval settings changed');
      return reply.redirect('/dashboard/settings?done=saved', 303);
    }),
  );

  app.post(
    '/dashboard/tokens',
    signedIn(ctx, async (request, reply, signed) => {
      const form = formOf(request);
      ctx.auth.checkCsrf(signed.session, 'tokens', form.csrf);
      try {
        const { token, summary } = await createMcpToken(ctx.db, signed.session.workspaceId, form.name, signed.session.email);
        request.log.info({ workspaceId: signed.session.workspaceId, tokenId: summary.id }, 'mcp token created');
        // Rendered, not redirected: the raw token exists only in this response.
        return await render(reply, signed, 201, { createdToken: { name: summary.name, token } });
      } catch (error) {
        if (isAppError(error) && error.httpStatus < 500) return render(reply, signed, error.httpStatus, { tokenError: error.toUserString() });
        throw error;
      }
    }),
  );

  app.post(
    '/dashboard/tokens/:id/revoke',
    signedIn(ctx, async (request, reply, signed) => {
      ctx.auth.checkCsrf(signed.session, 'tokens', formOf(request).csrf);
      await revokeMcpToken(ctx.db, signed.session.workspaceId, paramOf(request, 'id'));
      return reply.redirect('/dashboard/settings?done=revoked#mcp-tokens', 303);
    }),
  );

  app.post(
    '/dashboard/billing',
    signedIn(ctx, async (request, reply, signed) => {
      ctx.auth.checkCsrf(signed.session, 'billing', formOf(request).csrf);
      const { url } = await ctx.billing.createPortalSession(signed.session.workspaceId);
      return reply.header('cache-control', 'no-store').redirect(url, 303);
    }),
  );
};
