import { escapeMarkdown } from '@discordjs/formatters';

const ZWSP = '\u200b';

/**
 * Text from saved sources or users, made inert for Discord: `@everyone`, `@here` and raw
 * user/role mentions no longer read as mentions (allowed_mentions already stops the ping; this
 * stops the alarming highlight), and markdown cannot restyle or mask anything.
 */
export function inert(text: string): string {
  return unping(escapeMarkdown(text));
}

/** Mentions only, markdown kept: for answer text, whose formatting is wanted. */
export function unping(text: string): string {
  return text.replace(/@(everyone|here)\b/gi, `@${ZWSP}$1`).replace(/<(@[!&]?|#)(\d+)>/g, `<$1${ZWSP}$2>`);
}

/** Cuts to `max` characters with an ellipsis, never mid-surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** One line, whitespace collapsed: for titles, labels and choice names. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A URL safe to put in a markdown link: http(s) only, and nothing that could end the link early. */
export function linkableUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return parsed.href.replace(/[()\s<>]/g, (c) => encodeURIComponent(c));
  } catch {
    return undefined;
  }
}

/** `[Title](url)` when there is a usable URL, else the title in bold; the title is always inert. */
export function titledLink(title: string, url: string | null | undefined, max = 120): string {
  const label = inert(truncate(oneLine(title), max)).replace(/[[\]]/g, (c) => `\\${c}`);
  const href = linkableUrl(url);
  return href ? `[${label}](${href})` : `**${label}**`;
}

/** A bare URL in message content, wrapped so Discord shows no preview of it. */
export function noPreview(url: string): string {
  return `<${url.replace(/>/g, '%3E')}>`;
}
