import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { WorkspaceSummary } from '@brain/accounts';
import { isAppError } from '@brain/errors';
import { html, type SafeHtml } from '../../html/html.ts';
import { checkoutButton } from '../../pages/billing-pages.ts';
import { alreadyClaimed, claimed, claimFailure, claimForm, confirmClaim, linkSent } from '../../pages/claim-pages.ts';
import { sendMessage } from '../../pages/message-page.ts';
import { sendPage } from '../../pages/send-page.ts';
import { formOf, installGrant, queryOf, type OnboardingContext } from './context.ts';

/**
 * The claim: GET /claim shows the email form to the browser that installed; POST /claim asks
 * for a magic link (same answer for every address); the link's GET /claim/confirm only shows a
 * button (mail scanners open links), and POST /claim/confirm redeems it.
 */
export const claimRoutes: FastifyPluginAsync<{ ctx: OnboardingContext }> = async (app, { ctx }) => {
  const { session, accounts, billing, config } = ctx;

  const notInstaller = (reply: FastifyReply) =>
    sendMessage(
      reply,
      403,
      'This page belongs to whoever added the bot',
      'It opens in the browser that added Company Brain to the server, for an hour.',
      html`<p>If that was you, add it again from <a href="/install">/install</a>: it keeps everything and brings you back here.</p>`,
    );

  /** After the claim: subscribe, or the plan it already has. */
  const nextStep = (request: FastifyRequest, reply: FastifyReply, workspace: WorkspaceSummary): SafeHtml => {
    if (!billing.enabled) return html`<p class="muted">Billing is not configured on this server, so there is nothing more to do.</p>`;
    if (workspace.planStatus === 'active' || workspace.planStatus === 'trialing' || workspace.planStatus === 'past_due') {
      return html`<p>The plan is ${workspace.planStatus.replace('_', ' ')}. Manage it with <code>/billing</code> in Discord.</p>`;
    }
    const csrf = session.csrfToken(session.browserId(request, reply), 'checkout');
    return html`<p>Next: subscribe to lift the free limits.</p>${checkoutButton(workspace.id, billing.links.signature(workspace.id), csrf, 'Subscribe')}`;
  };

  const renderForm = async (request: FastifyRequest, reply: FastifyReply, workspace: WorkspaceSummary, status = 200, error?: string, email?: string) => {
    if (workspace.claimEmail) return sendPage(reply, 200, 'Already claimed', alreadyClaimed(workspace, nextStep(request, reply, workspace)));
    const browserId = session.browserId(request, reply);
    return sendPage(
      reply,
      status,
      'Claim your server',
      claimForm({ workspace, csrf: session.csrfToken(browserId, 'claim'), error, email, freeSaves: config.entitlements.freeSaves, freeAsks: config.entitlements.freeAsks }),
    );
  };

  app.get('/claim', async (request, reply) => {
    const workspaceId = queryOf(request).workspace;
    if (!installGrant.holds(ctx, request, workspaceId)) return notInstaller(reply);
    const workspace = await accounts.workspace(workspaceId);
    if (!workspace) return notInstaller(reply);
    return renderForm(request, reply, workspace);
  });

  app.post('/claim', async (request, reply) => {
    const form = formOf(request);
    session.checkCsrf(request, 'claim', form.csrf);
    if (!installGrant.holds(ctx, request, form.workspace)) return notInstaller(reply);
    const workspace = await accounts.workspace(form.workspace);
    if (!workspace) return notInstaller(reply);
    try {
      await accounts.requestLink({ purpose: 'claim', workspaceId: workspace.id, email: form.email, ip: request.ip });
    } catch (error) {
      if (isAppError(error, 'EMAIL_INVALID')) return renderForm(request, reply, workspace, 400, error.toUserString(), form.email);
      throw error;
    }
    return reply.redirect(`/claim/sent?workspace=${encodeURIComponent(workspace.id)}`, 303);
  });

  app.get('/claim/sent', async (_request, reply) => sendPage(reply, 200, 'Check your inbox', linkSent(accounts.mailer.kind === 'dev-outbox')));

  app.get('/claim/confirm', async (request, reply) => {
    const query = queryOf(request);
    const view = await accounts.describeClaimLink(query.token);
    if (view.token.state !== 'valid' || !view.workspace || !view.token.email) {
      const failure = claimFailure(view.token.state);
      return sendPage(reply, failure.status, failure.title, failure.body);
    }
    const browserId = session.browserId(request, reply);
    return sendPage(
      reply,
      200,
      'Confirm the claim',
      confirmClaim({
        workspace: view.workspace,
        email: view.token.email,
        token: query.token ?? '',
        tokenHash: query.token_hash ?? '',
        type: query.type ?? '',
        csrf: session.csrfToken(browserId, 'claim-confirm'),
      }),
    );
  });

  app.post('/claim/confirm', async (request, reply) => {
    const form = formOf(request);
    session.checkCsrf(request, 'claim-confirm', form.csrf);
    const result = await accounts.redeemClaim({ token: form.token, tokenHash: form.token_hash || undefined, type: form.type || undefined, ip: request.ip });
    if (!result.ok) {
      const failure = claimFailure(result.reason);
      return sendPage(reply, failure.status, failure.title, failure.body);
    }
    return sendPage(reply, 200, 'Claimed', claimed(result.workspace, result.email, result.alreadyOwner, nextStep(request, reply, result.workspace)));
  });
};
