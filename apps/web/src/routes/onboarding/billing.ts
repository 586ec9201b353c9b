import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { PlanSummary } from '@brain/billing';
import { awaitingConfirmation, checkoutButton, checkoutCanceled, checkoutPage, planLive } from '../../pages/billing-pages.ts';
import { sendMessage } from '../../pages/message-page.ts';
import { sendPage } from '../../pages/send-page.ts';
import { formOf, queryOf, type OnboardingContext, type FormBody } from './context.ts';

const LIVE = new Set(['active', 'trialing', 'past_due']);

/**
 * The billing pages behind signed per-workspace links (the checkout link a Discord message
 * carries, Stripe's success and cancel URLs): a checkout page whose button POSTs, the redirect
 * to Stripe Checkout, and the pages Stripe sends the browser back to.
 */
export const billingRoutes: FastifyPluginAsync<{ ctx: OnboardingContext }> = async (app, { ctx }) => {
  const { billing, session } = ctx;

  const signedPlan = async (params: FormBody, reply: FastifyReply): Promise<PlanSummary | undefined> => {
    if (!billing.links.verify(params.workspace, params.sig)) {
      sendMessage(reply, 403, 'This billing link is not valid', 'Use the link exactly as Company Brain gave it to you, or run /billing in Discord for a new one.');
      return undefined;
    }
    const plan = await billing.plan(params.workspace);
    if (!plan) sendMessage(reply, 404, 'This server is not set up', 'Add Company Brain to the server again from /install.');
    return plan;
  };

  const button = (request: FastifyRequest, reply: FastifyReply, plan: PlanSummary, sig: string, label?: string) =>
    checkoutButton(plan.workspaceId, sig, session.csrfToken(session.browserId(request, reply), 'checkout'), label);

  app.get('/billing/checkout', async (request, reply) => {
    const query = queryOf(request);
    const plan = await signedPlan(query, reply);
    if (!plan) return reply;
    if (!billing.enabled) return sendMessage(reply, 503, 'Billing is not set up here', 'This Company Brain server has no Stripe account configured.');
    if (LIVE.has(plan.planStatus)) return sendPage(reply, 200, 'Plan', planLive(plan));
    if (!plan.claimEmail) {
      return sendMessage(reply, 409, 'This server has not been claimed yet', 'Whoever added the bot claims it first, from the page they saw after installing; then it can subscribe.');
    }
    return sendPage(reply, 200, 'Subscribe', checkoutPage(plan, button(request, reply, plan, query.sig ?? ''), query.canceled === '1'));
  });

  app.post('/billing/checkout', async (request, reply) => {
    const form = formOf(request);
    session.checkCsrf(request, 'checkout', form.csrf);
    const plan = await signedPlan(form, reply);
    if (!plan) return reply;
    const { url } = await billing.startCheckout(plan.workspaceId);
    return reply.header('cache-control', 'no-store').redirect(url, 303);
  });

  app.get('/billing/success', async (request, reply) => {
    const plan = await signedPlan(queryOf(request), reply);
    if (!plan) return reply;
    if (LIVE.has(plan.planStatus)) return sendPage(reply, 200, 'Subscribed', planLive(plan));
    return sendPage(reply, 200, 'Almost there', awaitingConfirmation(plan), { refreshSeconds: 3 });
  });

  app.get('/billing/cancel', async (request, reply) => {
    const query = queryOf(request);
    const plan = await signedPlan(query, reply);
    if (!plan) return reply;
    if (LIVE.has(plan.planStatus)) return sendPage(reply, 200, 'Plan', planLive(plan));
    return sendPage(reply, 200, 'Checkout canceled', checkoutCanceled(plan, button(request, reply, plan, query.sig ?? '', 'Try again')));
  });

};
