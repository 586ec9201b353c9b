import type Stripe from 'stripe';
import { withService, type Database } from '@brain/db';
import { coerceError, isAppError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import { STRIPE_EVENT_HANDLERS } from './events/handlers.ts';
import type { EventOutcome } from './events/sync-subscription.ts';
import type { BillingGateway } from './stripe/billing-gateway.ts';

export interface WebhookDeps {
  db: Database;
  gateway: BillingGateway;
  logger: Logger;
}

export interface WebhookResult {
  status: number;
  body: Record<string, unknown>;
}

/**
 * POST /stripe/webhook, minus HTTP. Verify the signature on the raw bytes first; then, in one
 * transaction, record event.id in stripe_events_seen and apply the event's effect, so an event
 * counts as seen exactly when its effect is committed. A duplicate (sequential or concurrent:
 * the second INSERT waits for the first to commit) returns 200 with no effect. Only transient
 * failures answer 5xx, which rolls the record back and lets Stripe's retry start clean.
 */
export async function processStripeWebhook(deps: WebhookDeps, rawBody: Buffer, signature: string | string[] | undefined): Promise<WebhookResult> {
  let event: Stripe.Event;
  try {
    event = deps.gateway.constructEvent(rawBody, signature);
  } catch (error) {
    const refused = coerceError(error);
    deps.logger.warn({ code: refused.code, reason: refused.message }, 'stripe webhook refused');
    return { status: 400, body: { error: refused.code, message: refused.toUserString() } };
  }

  const log = deps.logger.child({ eventId: event.id, eventType: event.type });
  const handler = STRIPE_EVENT_HANDLERS[event.type];
  if (!handler) return { status: 200, body: { received: true, ignored: 'event type not handled' } };

  try {
    // Cheap early exit for redeliveries, before any call to Stripe; the INSERT below decides.
    const seen = await withService(deps.db, (tx) => tx.query('select 1 from public.stripe_events_seen where event_id = $1', [event.id]));
    if (seen.length > 0) return { status: 200, body: { received: true, duplicate: true } };

    const outcome = await withService(deps.db, async (tx): Promise<EventOutcome | 'duplicate'> => {
      const fresh = await tx.query(
        `insert into public.stripe_events_seen (event_id, type) values ($1, $2)
         on conflict (event_id) do nothing returning event_id`,
        [event.id, event.type],
      );
      if (fresh.length === 0) return 'duplicate';
      return handler(tx, event, { gateway: deps.gateway, logger: log });
    });
    if (outcome === 'duplicate') return { status: 200, body: { received: true, duplicate: true } };
    if (outcome.applied) log.info({ workspaceId: outcome.workspaceId, planStatus: outcome.planStatus }, 'stripe event applied');
    else log.warn({ reason: outcome.reason }, 'stripe event recorded without effect');
    return { status: 200, body: { received: true, ...(outcome.applied ? { planStatus: outcome.planStatus } : { ignored: outcome.reason }) } };
  } catch (error) {
    const failure = coerceError(error);
    const transient = !isAppError(error) || failure.retryable;
    log.error({ err: error, code: failure.code, transient }, 'stripe event failed');
    if (transient) return { status: failure.httpStatus === 503 ? 503 : 500, body: { error: failure.code, message: 'Not processed; retry later.' } };
    // Retrying cannot help: acknowledge, so Stripe does not retry for days; the log names the event to replay.
    return { status: 200, body: { received: true, failed: failure.code } };
  }
}
