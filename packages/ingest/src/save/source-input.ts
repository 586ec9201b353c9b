/** What a person can save, from any surface (Discord, CLI, MCP, the playground). */
export type SourceInput =
  | { kind: 'url'; url: string; title?: string | undefined }
  | {
      kind: 'file';
      bytes: Buffer;
      fileName: string;
      mimeType: string;
      title?: string | undefined;
      /**
       * A stable identity for the file when it has one (the CLI passes its path), so saving an
       * edited copy refreshes the same source; without it, identical bytes are the same source.
       */
      identity?: string | undefined;
    }
  | { kind: 'text'; text: string; title?: string | undefined }
  | {
      kind: 'discord_message';
      guildId: string;
      channelId: string;
      messageId: string;
      content: string;
      author: string;
      /** https://discord.com/channels/<guild>/<channel>/<message>: what citations link to. */
      jumpUrl: string;
      attachments: DiscordAttachment[];
      title?: string | undefined;
    }
  | {
      kind: 'discord_thread';
      guildId: string;
      threadId: string;
      /** The text, announcement or forum channel the thread belongs to. */
      parentId: string | null;
      /** A private thread is readable only by its members (and moderators). */
      private: boolean;
      /** The thread's name: the source's title. */
      name: string;
      /** Oldest first, bot and system messages already left out. */
      messages: ThreadMessage[];
      title?: string | undefined;
      /** A forum post's tag names; `solved` when one of them says the question was answered, or someone marked the thread solved. */
      tags?: string[] | undefined;
      solved?: boolean | undefined;
      /**
       * A channel's messages outside threads on one UTC day (YYYY-MM-DD), as /sync keeps them:
       * then `threadId` is the channel's id and the source is keyed by channel and day.
       */
      day?: string | undefined;
    };

/** One message of a saved thread. */
export interface ThreadMessage {
  id: string;
  /** The thread, or the parent channel for the starter message of a thread made from a message. */
  channelId: string;
  author: string;
  /** ISO 8601. */
  at: string;
  content: string;
  /** Jump link: https://discord.com/channels/<guild>/<channel>/<message>. */
  url: string;
  /** The display name of the author this message replies to. */
  replyTo: string | null;
  attachments: DiscordAttachment[];
}

export interface DiscordAttachment {
  id: string;
  url: string;
  fileName: string;
  mimeType: string;
  size: number;
}

/** File types the extractor understands; anything else is refused at save time, before a job exists. */
export const SAVEABLE_MIME_TYPES = ['text/html', 'application/xhtml+xml', 'application/pdf', 'text/plain', 'text/markdown'] as const;

export const MAX_SOURCE_BYTES = 20 * 1024 * 1024;
export const MAX_TEXT_CHARS = 1_000_000;

/** The MIME type for a file name, for uploads that arrive without a trustworthy one. */
export function mimeTypeForFileName(fileName: string): string | undefined {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  const byExtension: Record<string, string> = {
    html: 'text/html',
    htm: 'text/html',
    xhtml: 'application/xhtml+xml',
    pdf: 'application/pdf',
    md: 'text/markdown',
    markdown: 'text/markdown',
    txt: 'text/plain',
  };
  return byExtension[ext];
}
