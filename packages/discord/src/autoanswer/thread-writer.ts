import type { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { wireBody, type OutgoingMessage } from '../rest/outgoing-message.ts';

/** The bot's own writes in a thread: a message (never pinging anyone) and a reaction. */
export interface ThreadWriter {
  post(channelId: string, message: OutgoingMessage, replyTo?: string): Promise<{ id: string }>;
  react(channelId: string, messageId: string, emoji: string): Promise<void>;
}

/** Over the bot token's REST client (the Gateway client's own, so both use one API base). */
export function createThreadWriter(rest: REST): ThreadWriter {
  return {
    async post(channelId, message, replyTo) {
      const body = {
        ...wireBody(message),
        // fail_if_not_exists false: a starter deleted meanwhile still gets its thread's answer.
        ...(replyTo ? { message_reference: { message_id: replyTo, fail_if_not_exists: false } } : {}),
      };
      const created = (await rest.post(Routes.channelMessages(channelId), { body })) as { id: string };
      return { id: created.id };
    },
    async react(channelId, messageId, emoji) {
      await rest.put(Routes.channelMessageOwnReaction(channelId, messageId, encodeURIComponent(emoji)));
    },
  };
}
