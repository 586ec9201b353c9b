import { InteractionType, type APIInteraction } from 'discord-api-types/v10';
import { AppError } from '@brain/errors';

const SNOWFLAKE = /^\d{1,20}$/;

function malformed(reason: string): AppError {
  return new AppError({
    code: 'INTERACTION_MALFORMED',
    message: `Malformed interaction: ${reason}`,
    userMessage: 'That request is not a Discord interaction.',
    httpStatus: 400,
  });
}

/**
 * JSON.parse and the checks every handler relies on, after the signature has been verified:
 * a valid signature proves who sent the bytes, not that they are what the handlers expect.
 */
export function parseInteraction(rawBody: Buffer): APIInteraction {
  let value: unknown;
  try {
    value = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw malformed('the body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed('the body is not an object');
  const v = value as Record<string, unknown>;
  if (!Object.values(InteractionType).includes(v.type as InteractionType)) throw malformed('unknown interaction type');
  if (v.type === InteractionType.Ping) return value as APIInteraction;
  if (typeof v.id !== 'string' || !SNOWFLAKE.test(v.id)) throw malformed('id is not a snowflake');
  if (typeof v.application_id !== 'string' || !SNOWFLAKE.test(v.application_id)) throw malformed('application_id is not a snowflake');
  if (typeof v.token !== 'string' || v.token.length === 0 || v.token.length > 1000 || !/^[\w.-]+$/.test(v.token)) {
    throw malformed('token is missing or not a token');
  }
  if (typeof v.data !== 'object' || v.data === null) throw malformed('data is missing');
  if (v.guild_id !== undefined && (typeof v.guild_id !== 'string' || !SNOWFLAKE.test(v.guild_id))) throw malformed('guild_id is not a snowflake');
  const user = (v.member as { user?: unknown } | undefined)?.user ?? v.user;
  if (typeof user !== 'object' || user === null || typeof (user as { id?: unknown }).id !== 'string') throw malformed('no user');
  return value as APIInteraction;
}
