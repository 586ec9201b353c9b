import { MessageType, type APIMessage } from 'discord-api-types/v10';
import { AppError } from '@brain/errors';
import { mimeTypeForFileName, type ThreadMessage } from '@brain/ingest';
import { jumpUrl } from '../commands/save-message.ts';

export interface ThreadPlace {
  guildId: string;
  threadId: string;
  /** Where the starter of a thread made from a message lives. */
  parentId: string | null;
}

// What people wrote; every other type is a system notice (joins, pins, "started a thread", boosts…).
const CONVERSATION_TYPES = new Set<number>([MessageType.Default, MessageType.Reply]);

/**
 * A thread's history as the conversation to save: people's messages oldest first, with display
 * names, times, replies and attachments; bots and system messages left out. The starter of a
 * thread made from a channel message lives in the parent and reaches the thread only as a type-21
 * notice carrying it, so it is taken from there (a forum post's starter is already in the thread).
 * Fails with a reason when every message arrives empty: the MESSAGE_CONTENT intent is off.
 */
export function threadMessages(history: readonly APIMessage[], place: ThreadPlace): ThreadMessage[] {
  const byId = new Map(history.map((m) => [m.id, m]));
  const people: APIMessage[] = [];
  for (const m of history) {
    if (m.type === MessageType.ThreadStarterMessage) {
      const starter = m.referenced_message;
      if (starter && !starter.author.bot && CONVERSATION_TYPES.has(starter.type)) people.push(starter);
      continue;
    }
    if (m.author.bot || m.webhook_id || !CONVERSATION_TYPES.has(m.type)) continue;
    people.push(m);
  }
  if (people.length > 0 && people.every((m) => m.content === '' && m.attachments.length === 0 && m.embeds.length === 0)) {
    throw new AppError({
      code: 'DISCORD_MESSAGE_CONTENT_OFF',
      message: `All ${people.length} messages of ${place.threadId} arrived without content: the Message Content intent is off for this application.`,
      userMessage: 'Discord sent me every message of that thread without its text: the bot’s Message Content intent is switched off.',
      nextStep: 'In the Discord Developer Portal, open the application → Bot → Privileged Gateway Intents, switch on Message Content Intent, save, then try again.',
    });
  }
  return people.map((m) => {
    const channelId = m.channel_id;
    const replied = m.type === MessageType.Reply ? repliedAuthor(m, byId) : null;
    return {
      id: m.id,
      channelId,
      author: displayName(m),
      at: m.timestamp,
      content: m.content,
      url: jumpUrl(place.guildId, channelId, m.id),
      replyTo: replied,
      attachments: m.attachments.map((a) => ({
        id: a.id,
        url: a.url,
        fileName: a.filename,
        mimeType: a.content_type ?? mimeTypeForFileName(a.filename) ?? 'application/octet-stream',
        size: a.size,
      })),
    };
  });
}

function displayName(m: Pick<APIMessage, 'author'>): string {
  return m.author.global_name ?? m.author.username;
}

/** `referenced_message` null means the message replied to was deleted; absent, that Discord did not include it. */
function repliedAuthor(m: APIMessage, byId: Map<string, APIMessage>): string {
  if (m.referenced_message === null) return 'a deleted message';
  if (m.referenced_message) return displayName(m.referenced_message);
  const target = m.message_reference?.message_id ? byId.get(m.message_reference.message_id) : undefined;
  return target ? displayName(target) : 'an earlier message';
}
