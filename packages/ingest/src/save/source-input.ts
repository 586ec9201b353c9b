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
    };

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
