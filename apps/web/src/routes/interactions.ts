import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { InteractionResponseType } from 'discord-api-types/v10';
import { parseInteraction, type DiscordSurface } from '@brain/discord';
import { coerceError } from '@brain/errors';
import type { InteractionMetrics } from '@brain/observability';
import { WARM_UP_HEADER } from '../warm-up.ts';

/**
 * Interactions are small (a message command carries one resolved message); anything larger is
 * refused before it is read in full.
 */
export const INTERACTION_BODY_LIMIT = 256 * 1024;

function header(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * POST /interactions, Discord's interactions endpoint. Its own encapsulated scope keeps the raw
 * bytes: the Ed25519 signature is checked over exactly what arrived, before anything is parsed.
 * Order: size limit (413) → signature and freshness (401) → JSON and shape (400) → a response
 * within milliseconds; the slow work runs after it.
 */
const ACK_OUTCOMES: Partial<Record<InteractionResponseType, string>> = {
  [InteractionResponseType.Pong]: 'pong',
  [InteractionResponseType.ChannelMessageWithSource]: 'replied',
  [InteractionResponseType.DeferredChannelMessageWithSource]: 'deferred',
  [InteractionResponseType.DeferredMessageUpdate]: 'deferred_update',
  [InteractionResponseType.ApplicationCommandAutocompleteResult]: 'autocomplete',
};

export const interactionsRoute: FastifyPluginAsync<{
  surface: DiscordSurface | undefined;
  metrics?: InteractionMetrics | undefined;
  /** Requests carrying this value in WARM_UP_HEADER are the instance's own warm-up: neither counted nor logged. */
  warmUpToken?: string | undefined;
}> = async (app, { surface, metrics, warmUpToken }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INTERACTION_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post('/interactions', async (request, reply) => {
    // Outcome and time to acknowledge (from the first byte, body read included), whatever happens.
    let outcome = 'error';
    const warming = warmUpToken !== undefined && request.headers[WARM_UP_HEADER] === warmUpToken;
    try {
      const response = await acknowledge(request, reply, warming);
      outcome = response.outcome;
      return response.sent;
    } catch (error) {
      outcome = coerceError(error).httpStatus === 400 ? 'malformed' : 'error';
      throw error;
    } finally {
      if (!warming) metrics?.acknowledged(outcome, reply.elapsedTime / 1000);
    }
  });

  async function acknowledge(request: FastifyRequest, reply: FastifyReply, warming: boolean): Promise<{ outcome: string; sent: unknown }> {
    if (!surface) {
      // Expected, and the operator's to fix: said plainly (the error handler hides 5xx details).
      return { outcome: 'not_configured', sent: reply.status(503).send({
        error: 'DISCORD_NOT_CONFIGURED',
        message: 'No interaction can be verified: DISCORD_PUBLIC_KEY is not set and the playground is off. Set DISCORD_PUBLIC_KEY (Discord developer portal → General Information).',
      }) };
    }
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const check = surface.verifier.verify({
      signature: header(request.headers['x-signature-ed25519']),
      timestamp: header(request.headers['x-signature-timestamp']),
      rawBody,
    });
    if (!check.ok) {
      if (!warming) request.log.info({ reason: check.reason }, 'interaction refused: signature');
      return { outcome: 'invalid_signature', sent: reply.status(401).send({ error: 'INVALID_SIGNATURE', message: 'Invalid request signature.' }) };
    }
    const interaction = parseInteraction(rawBody);
    // Ties this request's id to the interaction id every later line of its work carries.
    request.log.info({ interactionId: interaction.id, type: interaction.type }, 'interaction received');
    // The dev key signs playground interactions only: it can never act on a real server's workspace.
    if (check.key === 'playground' && 'guild_id' in interaction && interaction.guild_id !== surface.playgroundGuildId) {
      return { outcome: 'invalid_signature', sent: reply.status(401).send({ error: 'INVALID_SIGNATURE', message: 'Invalid request signature.' }) };
    }
    const response = await surface.handle(interaction, check.key, Date.now());
    return { outcome: ACK_OUTCOMES[response.type] ?? 'other', sent: reply.send(response) };
  }
};
