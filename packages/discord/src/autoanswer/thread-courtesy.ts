import { coerceError } from '@brain/errors';
import type { Logger } from '@brain/observability';
import type { OutgoingMessage } from '../rest/outgoing-message.ts';
import { forbiddenReason } from './forbidden-reason.ts';
import { UNCOVERED_REACTION } from './messages.ts';
import type { ThreadMessage } from './thread-message.ts';
import type { ThreadWriter } from './thread-writer.ts';

/** The reaction on a post nothing covers (setting "reaction"). */
export async function react(writer: ThreadWriter, message: ThreadMessage): Promise<null> {
  await writer.react(message.threadId, message.messageId, UNCOVERED_REACTION);
  return null;
}

/** A short public line in the thread; where the bot may not post (a 403…) the log says why instead. */
export async function announce(writer: ThreadWriter, log: Logger, message: ThreadMessage, line: OutgoingMessage): Promise<string | null> {
  return quietly(log, async () => (await writer.post(message.threadId, line, message.messageId)).id);
}

/** A courtesy post's failure (missing permission…) is logged with why, and the outcome still recorded. */
export async function quietly(log: Logger, run: () => Promise<string | null>): Promise<string | null> {
  try {
    return await run();
  } catch (error) {
    const refused = forbiddenReason(error);
    log.warn({ err: coerceError(error), ...(refused ? { code: 'AUTOANSWER_FORBIDDEN' } : {}) }, `auto-answer: could not react or post the short line${refused ? `: ${refused}` : ''}`);
    return null;
  }
}
