import { cleanText } from './decode-text.ts';
import { emptyDocument } from './extract-errors.ts';
import { LinkCollector } from './links.ts';
import type { ExtractedDocument } from './types.ts';

export interface DiscordMessageInput {
  content: string;
  authorName?: string;
  channelName?: string;
  /** Names for the ids in `<@id>`, `<@&id>` and `<#id>`, from the message's resolved mentions. */
  mentions?: {
    users?: Record<string, string>;
    roles?: Record<string, string>;
    channels?: Record<string, string>;
  };
  embeds?: { title?: string; description?: string; url?: string }[];
}

const ZWSP = '\u200b';

/**
 * Rewrites everything Discord would turn into a ping into text that cannot ping, whatever the
 * sending code's `allowed_mentions` says: `<@123>` → `@name`, `<@&456>` → `@role name`,
 * `<#789>` → `#channel`, and `@everyone` / `@here` get a zero-width space after the `@`.
 * The ids are gone from the text, so nothing downstream (an LLM quoting it) can rebuild them.
 * Names are substituted first and neutralised after: a user called "everyone" stays harmless.
 */
export function neutralizeMentions(text: string, mentions: DiscordMessageInput['mentions'] = {}): string {
  return text
    .replace(/<@!?(\d{1,20})>/g, (_m, id: string) => `@${mentions.users?.[id] ?? 'unknown-user'}`)
    .replace(/<@&(\d{1,20})>/g, (_m, id: string) => `@${mentions.roles?.[id] ?? 'unknown-role'}`)
    .replace(/<#(\d{1,20})>/g, (_m, id: string) => `#${mentions.channels?.[id] ?? 'unknown-channel'}`)
    .replace(/<\/([\w -]{1,64}):\d{1,20}>/g, '/$1')
    .replace(/<a?(:\w{1,64}:)\d{1,20}>/g, '$1')
    .replace(/@(everyone|here)\b/gi, `@${ZWSP}$1`);
}

/** A Discord message as a markdown document (Discord messages are markdown). */
export function extractDiscordMessage(message: DiscordMessageInput): ExtractedDocument {
  const parts = [neutralizeMentions(cleanText(message.content), message.mentions).trim()];
  for (const embed of message.embeds ?? []) {
    const title = embed.title ? `## ${neutralizeMentions(cleanText(embed.title)).replace(/\s+/g, ' ').trim()}` : '';
    const description = embed.description ? neutralizeMentions(cleanText(embed.description)).trim() : '';
    parts.push([title, description].filter(Boolean).join('\n\n'));
  }
  const text = parts.filter(Boolean).join('\n\n');
  if (text === '') throw emptyDocument('message', 'It has no text: save its attachments with /save file: instead.');

  const links = new LinkCollector(undefined, undefined, 100);
  for (const match of text.matchAll(/\bhttps?:\/\/[^\s<>"'`)\]]+/g)) links.add(match[0].replace(/[.,;:!?]+$/, ''));
  for (const embed of message.embeds ?? []) links.add(embed.url);

  const author = message.authorName ? neutralizeMentions(message.authorName) : null;
  const where = message.channelName ? ` in #${neutralizeMentions(message.channelName)}` : '';
  return {
    kind: 'markdown',
    title: author ? `Message from ${author}${where}` : null,
    byline: author,
    text,
    links: links.links,
    truncated: false,
  };
}
