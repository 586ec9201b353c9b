import { MessageFlags } from 'discord-api-types/v10';
import { coerceError } from '@brain/errors';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { DISCORD_LIMITS } from './limits.ts';
import { truncate } from './text.ts';

/**
 * A plain-text message. Content-only, so link previews are suppressed (SUPPRESS_EMBEDS would
 * also hide rich embeds, which is why messages with embeds never set it).
 */
export function notice(text: string): OutgoingMessage {
  return { content: truncate(text, DISCORD_LIMITS.content), embeds: [], components: [], flags: MessageFlags.SuppressEmbeds };
}

/** An error as the person who ran the command should read it: what happened, what to do. */
export function errorNotice(error: unknown, prefix = '⚠️'): OutgoingMessage {
  const appError = coerceError(error);
  return notice(`${prefix} ${appError.toUserString()}${appError.code === 'INTERNAL' ? '' : ` (\`${appError.code}\`)`}`);
}
