import type { DoctorCheck } from '../check.ts';
import { fail, pass, skip } from '../check.ts';

export const stripeWebhookSecretCheck: DoctorCheck = {
  id: 'stripe-webhook-secret',
  title: 'Stripe webhook secret',
  async run(ctx) {
    if (!ctx.env.STRIPE_SECRET_KEY?.trim()) return skip('STRIPE_SECRET_KEY is not set: billing is off and everything is allowed');
    const secret = ctx.env.STRIPE_WEBHOOK_SECRET?.trim();
    const endpoint = `${ctx.config?.publicUrl ?? 'PUBLIC_URL'}/stripe/webhook`;
    const nextStep = `In the Stripe dashboard (Developers → Webhooks), add the endpoint ${endpoint} and copy its signing secret (whsec_…) into STRIPE_WEBHOOK_SECRET.`;
    if (!secret) return fail('STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: no webhook could be verified, so paid plans would never start', nextStep);
    if (!secret.startsWith('whsec_')) return fail('STRIPE_WEBHOOK_SECRET does not start with whsec_: it is not an endpoint signing secret', nextStep);
    return pass(`set (whsec_…), endpoint ${endpoint}`);
  },
};
