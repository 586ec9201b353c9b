import type { FastifyPluginAsync } from 'fastify';
import type { BillingService } from '@brain/billing';

/**
 * POST /stripe/webhook. The signature covers the exact bytes Stripe sent, so this scope keeps
 * the body as a Buffer (its own JSON parser, encapsulated: the rest of the app still parses
 * JSON); billing verifies first and only then parses.
 */
export const stripeWebhookRoute: FastifyPluginAsync<{ billing: BillingService }> = async (app, { billing }) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) => {
    done(null, body);
  });

  app.post('/stripe/webhook', async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const result = await billing.handleWebhook(raw, request.headers['stripe-signature']);
    return reply.status(result.status).send(result.body);
  });
};
