import { createHash } from 'node:crypto';
import { AppError, type ErrorCode } from '@brain/errors';
import { normalizeUrl } from './normalize-url.ts';
import { MAX_SOURCE_BYTES, MAX_TEXT_CHARS, mimeTypeForFileName, SAVEABLE_MIME_TYPES, type DiscordAttachment, type SourceInput, type ThreadMessage } from './source-input.ts';
import { THREAD_BODY_MIME_TYPE, type ThreadBody } from './thread-body.ts';

/** One artifact to write: what the row says, and what the worker will need to index it. */
export interface PlannedArtifact {
  kind: 'url' | 'file' | 'text' | 'discord_message' | 'discord_thread';
  sourceKey: string;
  url: string | null;
  title: string | null;
  fileName: string | null;
  mimeType: string | null;
  author: string | null;
  metadata: Record<string, unknown>;
  /** Stored in artifact_sources when the source cannot be fetched again. */
  body: { bytes: Buffer } | { text: string } | null;
}

export interface SkippedAttachment {
  fileName: string;
  reason: string;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

function refuse(code: ErrorCode, userMessage: string, nextStep: string): AppError {
  return new AppError({ code, message: userMessage, userMessage, nextStep, httpStatus: 400 });
}

function saveableMimeType(declared: string | undefined, fileName: string): string | undefined {
  const base = declared?.split(';')[0]?.trim().toLowerCase();
  if (base && (SAVEABLE_MIME_TYPES as readonly string[]).includes(base)) return base;
  // Browsers and Discord often send octet-stream or nothing; the name is the better hint then.
  const byName = mimeTypeForFileName(fileName);
  if (byName && (!base || base === 'application/octet-stream' || base.startsWith('text/'))) return byName;
  return undefined;
}

/**
 * Checks what was sent and decides which artifacts it becomes, before anything is written, so
 * bad input is refused with a reason and nothing half-saved is left behind.
 */
export function planArtifacts(input: SourceInput): { planned: PlannedArtifact[]; skipped: SkippedAttachment[] } {
  const title = input.title?.trim() || null;
  switch (input.kind) {
    case 'url': {
      const url = normalizeUrl(input.url);
      return {
        planned: [{ kind: 'url', sourceKey: url, url, title, fileName: null, mimeType: null, author: null, metadata: {}, body: null }],
        skipped: [],
      };
    }
    case 'file': {
      if (input.bytes.length === 0) throw refuse('SAVE_EMPTY', `${input.fileName} is empty.`, 'Check the file and upload it again.');
      if (input.bytes.length > MAX_SOURCE_BYTES) {
        throw refuse('SAVE_TOO_LARGE', `${input.fileName} is ${(input.bytes.length / 1048576).toFixed(1)} MB; the limit is 20 MB.`, 'Split it, or save the part that matters as text.');
      }
      const mimeType = saveableMimeType(input.mimeType, input.fileName);
      if (!mimeType) {
        throw refuse('SAVE_UNSUPPORTED_TYPE', `${input.fileName} is not a type I can read (${input.mimeType || 'unknown type'}).`, 'Save PDF, HTML, Markdown or plain-text files.');
      }
      return {
        planned: [
          {
            kind: 'file',
            sourceKey: input.identity ? `file-path:${input.identity}` : `file:${sha256(input.bytes)}`,
            url: null,
            title,
            fileName: input.fileName,
            mimeType,
            author: null,
            metadata: {},
            body: { bytes: input.bytes },
          },
        ],
        skipped: [],
      };
    }
    case 'text': {
      const text = input.text.trim();
      if (!text) throw refuse('SAVE_EMPTY', 'There is no text to save.', 'Paste the text you want the brain to know.');
      if (text.length > MAX_TEXT_CHARS) throw refuse('SAVE_TOO_LARGE', `That text is ${text.length} characters; the limit is ${MAX_TEXT_CHARS}.`, 'Save it as a file instead.');
      const firstLine = (text.split('\n')[0] ?? '').replace(/^#+\s*/, '').trim();
      return {
        planned: [
          {
            kind: 'text',
            sourceKey: `text:${sha256(text)}`,
            url: null,
            title: title ?? (firstLine.length > 80 ? `${firstLine.slice(0, 77)}…` : firstLine || 'Untitled note'),
            fileName: null,
            mimeType: 'text/markdown',
            author: null,
            metadata: {},
            body: { text },
          },
        ],
        skipped: [],
      };
    }
    case 'discord_message': {
      const planned: PlannedArtifact[] = [];
      const skipped: SkippedAttachment[] = [];
      const messageKey = `discord:${input.guildId}/${input.channelId}/${input.messageId}`;
      if (input.content.trim()) {
        planned.push({
          kind: 'discord_message',
          sourceKey: messageKey,
          url: input.jumpUrl,
          title: title ?? `Message from ${input.author}`,
          fileName: null,
          mimeType: 'text/markdown',
          author: input.author,
          metadata: { message_id: input.messageId, channel_id: input.channelId },
          body: { text: input.content },
        });
      }
      planAttachments(input.attachments, { messageKey, jumpUrl: input.jumpUrl, author: input.author, messageId: input.messageId }, planned, skipped);
      if (planned.length === 0) {
        throw refuse(
          'SAVE_EMPTY',
          skipped.length > 0 ? 'That message has no text, and none of its attachments is a type I can read.' : 'That message has no text or attachments to save.',
          'Save a message with text, or with a PDF, HTML, Markdown or text attachment.',
        );
      }
      return { planned, skipped };
    }
    case 'discord_thread':
      return planThread(input, title);
  }
}

/** A PDF or text attachment becomes its own source, cited by its message's link; others are skipped with a reason. */
function planAttachments(
  attachments: readonly DiscordAttachment[],
  from: { messageKey: string; jumpUrl: string; author: string; messageId: string; threadId?: string },
  planned: PlannedArtifact[],
  skipped: SkippedAttachment[],
): void {
  for (const attachment of attachments) {
    const mimeType = saveableMimeType(attachment.mimeType, attachment.fileName);
    if (!mimeType) {
      skipped.push({ fileName: attachment.fileName, reason: 'not a PDF, HTML, Markdown or text file' });
    } else if (attachment.size > MAX_SOURCE_BYTES) {
      skipped.push({ fileName: attachment.fileName, reason: 'larger than 20 MB' });
    } else {
      planned.push({
        kind: 'file',
        sourceKey: `${from.messageKey}/attachments/${attachment.id}`,
        url: from.jumpUrl,
        title: attachment.fileName,
        fileName: attachment.fileName,
        mimeType,
        author: from.author,
        metadata: { download_url: attachment.url, message_id: from.messageId, ...(from.threadId ? { thread_id: from.threadId } : {}) },
        body: null,
      });
    }
  }
}

/**
 * A whole thread is one source keyed by its id (saving it again refreshes it), its messages kept
 * as structured data so passages can follow message boundaries and cite each message. Its
 * attachments are sources of their own, linked to the thread and cited by their message.
 */
function planThread(input: Extract<SourceInput, { kind: 'discord_thread' }>, title: string | null): { planned: PlannedArtifact[]; skipped: SkippedAttachment[] } {
  const messages = input.messages.filter((m) => m.content.trim() !== '' || m.attachments.length > 0);
  if (messages.length === 0) {
    throw refuse('SAVE_EMPTY', 'That thread has no messages with text or attachments to save.', 'Save a thread where people wrote something, or use “Save to brain” on one message.');
  }
  const chars = messages.reduce((n, m) => n + m.content.length, 0);
  if (chars > MAX_TEXT_CHARS) {
    throw refuse('SAVE_TOO_LARGE', `That thread holds ${chars} characters of text; the limit is ${MAX_TEXT_CHARS}.`, 'Save its key messages one by one with “Save to brain”.');
  }
  const body: ThreadBody = {
    version: 1,
    messages: messages.map((m) => ({ id: m.id, url: m.url, author: m.author, at: m.at, content: m.content, replyTo: m.replyTo, attachments: m.attachments.map((a) => a.fileName) })),
  };
  const planned: PlannedArtifact[] = [
    {
      kind: 'discord_thread',
      sourceKey: input.day ? `discord-channel-day:${input.guildId}/${input.threadId}/${input.day}` : `discord-thread:${input.guildId}/${input.threadId}`,
      // A day of a channel opens at its first message; a thread at its top.
      url: input.day ? (messages[0] as ThreadMessage).url : `https://discord.com/channels/${input.guildId}/${input.threadId}`,
      title: title ?? (input.name.trim() || 'Untitled thread'),
      fileName: null,
      mimeType: THREAD_BODY_MIME_TYPE,
      author: null,
      // Where it came from, for audiences (who could read it there) and for refreshing it.
      metadata: {
        guild_id: input.guildId,
        channel_id: input.threadId,
        thread_id: input.day ? null : input.threadId,
        parent_channel_id: input.parentId,
        private: input.private,
        message_ids: messages.map((m) => m.id),
        message_count: messages.length,
        ...(input.day ? { day: input.day } : {}),
        // A thread outside a forum has no tags, but can still be marked solved (✅, "Mark solved").
        ...(input.tags || input.solved ? { tags: input.tags ?? [], solved: input.solved === true } : {}),
      },
      body: { text: JSON.stringify(body) },
    },
  ];
  const skipped: SkippedAttachment[] = [];
  for (const m of messages) {
    planAttachments(m.attachments, { messageKey: `discord:${input.guildId}/${m.channelId}/${m.id}`, jumpUrl: m.url, author: m.author, messageId: m.id, threadId: input.threadId }, planned, skipped);
  }
  return { planned, skipped };
}
